/**
 * HMAC-SHA256 with a synchronous Node fast path and a portable Web Crypto path, plus the digest
 * encoders used by sign/verify. Internal module: nothing here is exported from the package entry.
 */

/** Options for {@link hmacSha256}. @internal */
export interface HmacOptions {
  /**
   * Skip Node's `createHmac` fast path and use Web Crypto even on Node (for tests).
   * @default false
   */
  forceWebCrypto?: boolean;
}

// Structural type instead of `typeof import('node:crypto')` keeps Node types out of this browser-bundled module.
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: object): { update(data: string | Uint8Array): unknown; digest(): Uint8Array };
  createSecretKey(key: string, encoding: 'utf8'): object;
}

// undefined = not probed yet; null = not available in this runtime.
let nodeCrypto: NodeCrypto | null | undefined;

// Pure memos (secret -> Node KeyObject / Web Crypto key), so module-level state is safe. A KeyObject
// skips re-encoding the secret on every call.
const nodeKeys = new Map<string, object>();
const webKeys = new Map<string, CryptoKey>();

// Bounded, oldest dropped first, so rotating secrets in a long-lived process cannot grow a memo without limit.
function remember<T>(cache: Map<string, T>, secret: string, value: T): T {
  if (cache.size > 31) cache.delete(cache.keys().next().value!);
  cache.set(secret, value);
  return value;
}

/**
 * HMAC-SHA256 of the concatenation of `parts` (strings are UTF-8 encoded), keyed by the UTF-8 bytes of
 * `secret`. Synchronous via Node's `createHmac` when available (no promise hop on the hot path), else a
 * promise from Web Crypto.
 *
 * @internal
 * @example
 * ```ts
 * const mac = await hmacSha256(secret, [`${timestamp}.`, rawBodyBytes]);
 * ```
 */
export function hmacSha256(
  secret: string,
  parts: readonly (string | Uint8Array)[],
  options?: HmacOptions,
): Uint8Array | Promise<Uint8Array> {
  if (nodeCrypto === undefined) {
    nodeCrypto = null;
    try {
      // getBuiltinModule (Node >= 20.16) avoids a static `node:` import, which would break browser bundles.
      const mod = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.(
        'node:crypto',
      ) as Partial<NodeCrypto> | undefined;
      // A shim without these must fall back to Web Crypto rather than fail every verification.
      if (mod?.createHmac && mod.createSecretKey) nodeCrypto = mod as NodeCrypto;
    } catch {
      // Some runtimes ship a `process` shim whose getBuiltinModule throws; Web Crypto covers them.
    }
  }
  const node = !options?.forceWebCrypto && nodeCrypto;
  if (!node) return webCryptoHmac(secret, parts);
  const hmac = node.createHmac(
    'sha256',
    nodeKeys.get(secret) ?? remember(nodeKeys, secret, node.createSecretKey(secret, 'utf8')),
  );
  // Feeding parts separately avoids copying the body into a concatenated buffer.
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

async function webCryptoHmac(secret: string, parts: readonly (string | Uint8Array)[]): Promise<Uint8Array> {
  const subtle = crypto.subtle;
  // Only successfully imported keys are memoised, so a failed import is retried next time.
  const key =
    webKeys.get(secret) ??
    remember(
      webKeys,
      secret,
      await subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]),
    );
  // The UTF-8 encoded strings and the raw body bytes (never re-encoded), joined. Not with Blob: some runtimes
  // with Web Crypto lack Blob or Blob#arrayBuffer (React Native, Safari < 14).
  const chunks = parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : part));
  const signed = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    signed.set(chunk, offset);
    offset += chunk.length;
  }
  return new Uint8Array(await subtle.sign('HMAC', key, signed));
}

/** Lowercase hex encoding. @internal */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += (byte < 16 ? '0' : '') + byte.toString(16);
  return out;
}

/** Standard, padded base64 encoding (`btoa` exists in browsers, edge runtimes and Node >= 16). @internal */
export function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}
