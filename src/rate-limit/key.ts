// The name of an API key's budget in a store: a hash of the key, so a shared store never holds the key, and
// every key gets its own namespace on every runtime — SHA-256 from Web Crypto, else node:crypto; where there
// is neither (a browser page over plain http), a shared store is refused at construction and the in-process
// store, which never leaves the process, takes a plain 64-bit hash.

const PREFIX = 'svc-a11y:rl:v1:';

/**
 * The budget key of an API key: `svc-a11y:rl:v1:` and the first 32 hex digits of its SHA-256.
 * @example await budgetKey('svc_…') // 'svc-a11y:rl:v1:3f9c…'
 */
export async function budgetKey(apiKey: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
    return PREFIX + [...new Uint8Array(digest).subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  const nodeCrypto = nodeCryptoModule();
  if (nodeCrypto) return PREFIX + nodeCrypto.createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
  return `${PREFIX}local:${fnv64(apiKey)}`;
}

/** Whether this runtime can hash an API key with SHA-256 (what a shared store requires). */
export function canHashKeys(): boolean {
  return Boolean(globalThis.crypto?.subtle ?? nodeCryptoModule());
}

interface NodeCrypto {
  createHash(algorithm: string): { update(text: string): { digest(encoding: 'hex'): string } };
}

// node:crypto without an import statement (which would break bundles for browsers): Node ≥ 20.16, Deno, Bun.
function nodeCryptoModule(): NodeCrypto | undefined {
  try {
    return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

// Two 32-bit FNV-1a hashes with different primes: enough to keep the keys of one process apart.
function fnv64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
