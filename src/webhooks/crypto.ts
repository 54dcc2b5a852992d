/**
 * HMAC-SHA256 primitive with a Node fast path and a portable Web Crypto path,
 * plus the constant-time compare and digest codecs used by sign/verify.
 * Internal module: nothing here is exported from the package entry.
 */

/** Options for {@link hmacSha256}. @internal */
export interface HmacOptions {
  /**
   * Skip Node's `createHmac` fast path and use Web Crypto even on Node (for tests).
   * @default false
   */
  forceWebCrypto?: boolean;
}

// Structural types instead of `typeof import('node:crypto')` keep Node types out of this
// browser-bundled module.
interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(): Uint8Array;
}
interface NodeCryptoLike {
  createHmac(algorithm: 'sha256', key: string | object): NodeHmac;
  createSecretKey(key: Uint8Array): object;
}

// undefined = not probed yet; null = not available in this runtime.
let nodeCrypto: NodeCryptoLike | null | undefined;

function getNodeCrypto(): NodeCryptoLike | null {
  if (nodeCrypto !== undefined) return nodeCrypto;
  nodeCrypto = null;
  try {
    // getBuiltinModule (Node >= 20.16) avoids a static `node:` import, which would break browser bundles.
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as Partial<NodeCryptoLike> | undefined;
    if (mod && typeof mod.createHmac === 'function' && typeof mod.createSecretKey === 'function') nodeCrypto = mod as NodeCryptoLike;
  } catch {
    // Some runtimes ship a `process` shim whose getBuiltinModule throws; Web Crypto covers them.
  }
  return nodeCrypto;
}

const encoder = new TextEncoder();

/** Maximum number of imported Web Crypto keys kept in the memo. */
const KEY_CACHE_LIMIT = 32;
// Pure memo (secret -> imported key), so module-level state is safe; bounded so rotating
// secrets in a long-lived process cannot grow it without limit.
const keyCache = new Map<string, Promise<CryptoKey>>();

function importHmacKey(secret: string): Promise<CryptoKey> {
  const cached = keyCache.get(secret);
  if (cached) return cached;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (globalThis.crypto.subtle) is not available in this runtime');
  const promise = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  // A failed import must not poison the cache for later calls.
  promise.catch(() => {
    if (keyCache.get(secret) === promise) keyCache.delete(secret);
  });
  if (keyCache.size >= KEY_CACHE_LIMIT) {
    const oldest = keyCache.keys().next();
    if (!oldest.done) keyCache.delete(oldest.value);
  }
  keyCache.set(secret, promise);
  return promise;
}

// Pure memo (secret -> KeyObject): a KeyObject skips re-encoding the secret on every verification.
const nodeKeyCache = new Map<string, object>();

function nodeKey(node: NodeCryptoLike, secret: string): object {
  let key = nodeKeyCache.get(secret);
  if (!key) {
    if (nodeKeyCache.size >= KEY_CACHE_LIMIT) nodeKeyCache.delete(nodeKeyCache.keys().next().value as string);
    key = node.createSecretKey(encoder.encode(secret));
    nodeKeyCache.set(secret, key);
  }
  return key;
}

function concatParts(parts: readonly (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * HMAC-SHA256 of the concatenation of `parts` (strings are UTF-8 encoded), keyed by the
 * UTF-8 bytes of `secret`. Uses Node's `createHmac` when available, else Web Crypto.
 *
 * @internal
 * @example
 * ```ts
 * const mac = await hmacSha256(secret, [`${timestamp}.`, rawBodyBytes]);
 * ```
 */
export async function hmacSha256(
  secret: string,
  parts: readonly (string | Uint8Array)[],
  options?: HmacOptions,
): Promise<Uint8Array> {
  return hmacSha256Sync(secret, parts, options) ?? webCryptoHmac(secret, parts);
}

/**
 * The Node fast path of {@link hmacSha256} without a promise hop; `undefined` when
 * `createHmac` is unavailable or `forceWebCrypto` is set (then use {@link hmacSha256}).
 * @internal
 */
export function hmacSha256Sync(
  secret: string,
  parts: readonly (string | Uint8Array)[],
  options?: HmacOptions,
): Uint8Array | undefined {
  const node = options?.forceWebCrypto ? null : getNodeCrypto();
  if (!node) return undefined;
  // Feeding parts separately avoids copying the body into a concatenated buffer.
  const hmac = node.createHmac('sha256', nodeKey(node, secret));
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

async function webCryptoHmac(secret: string, parts: readonly (string | Uint8Array)[]): Promise<Uint8Array> {
  const key = await importHmacKey(secret);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, concatParts(parts)));
}

/**
 * Constant-time byte comparison: always walks the whole input (XOR-accumulate, no early exit).
 * Only the lengths, which are public (always 32 here), can short-circuit.
 * @internal
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Accept both the standard and URL-safe base64 alphabets when decoding.
const B64_LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_LOOKUP[B64.charCodeAt(i)] = i;
B64_LOOKUP['-'.charCodeAt(0)] = 62;
B64_LOOKUP['_'.charCodeAt(0)] = 63;

/** Lowercase hex encoding. @internal */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

/** Standard, padded base64 encoding. @internal */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + '=';
  }
  return out;
}

// Table lookup keeps hex decoding cheap on the hot path; both cases are accepted.
const HEX_LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_LOOKUP[HEX.charCodeAt(i)] = i;
  HEX_LOOKUP[HEX.toUpperCase().charCodeAt(i)] = i;
}

function hexNibble(code: number): number {
  return code < 128 ? HEX_LOOKUP[code]! : -1;
}

/** Byte length of an HMAC-SHA256 digest. */
export const DIGEST_BYTES = 32;

/**
 * Decodes a signature value that is either 64 hex chars (any case) or base64/base64url of
 * exactly 32 bytes (padding optional, canonical trailing bits required). `undefined` otherwise.
 * @internal
 */
export function decodeDigest(value: string): Uint8Array | undefined {
  const out = new Uint8Array(DIGEST_BYTES);
  if (value.length === DIGEST_BYTES * 2) {
    for (let i = 0; i < DIGEST_BYTES; i++) {
      const hi = hexNibble(value.charCodeAt(2 * i));
      const lo = hexNibble(value.charCodeAt(2 * i + 1));
      if (hi < 0 || lo < 0) return undefined;
      out[i] = (hi << 4) | lo;
    }
    return out;
  }
  // 32 bytes = 43 base64 chars carrying 258 bits, plus one optional '=' pad.
  const length = value.length === 44 && value.endsWith('=') ? 43 : value.length;
  if (length !== 43) return undefined;
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    const v = code < 128 ? B64_LOOKUP[code]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  // Non-zero leftover bits mean a non-canonical encoding; reject rather than guess.
  return acc === 0 ? out : undefined;
}
