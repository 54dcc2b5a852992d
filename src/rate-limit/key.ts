// The name of an API key's budget in a store: a hash of the key, so a shared store never holds the key, and
// every key gets its own namespace on every runtime — SHA-256 from Web Crypto, else node:crypto; where there
// is neither (a browser page over plain http), a shared store is refused and the in-process store, which
// never leaves the process, takes a plain 64-bit hash.
import { MemoryRateLimitStore, type RateLimitStore } from '../core/rate-limit-store.js';

const PREFIX = 'svc-a11y:rl:v1:';

/**
 * The budget key of an API key: `svc-a11y:rl:v1:` and the first 32 hex digits of its SHA-256.
 * @param store - the store the key is for: a shared one (not the in-process store) needs SHA-256
 * @param Refusal - the error class a shared store is refused with where no SHA-256 exists
 * @default Refusal Error
 * @example await budgetKey('svc_…') // 'svc-a11y:rl:v1:3f9c…'
 */
export async function budgetKey(
  apiKey: string,
  store?: RateLimitStore,
  Refusal: new (message: string) => Error = Error,
): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
    return PREFIX + [...new Uint8Array(digest).subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  const nodeCrypto = nodeCryptoModule();
  if (nodeCrypto) return PREFIX + nodeCrypto.createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
  if (store && !(store instanceof MemoryRateLimitStore)) {
    throw new Refusal(
      'rateLimit.store: a shared store needs SHA-256 to keep the API key out of it (crypto.subtle, which browsers give only to https pages, or node:crypto); nothing was sent. Use the in-process store here.',
    );
  }
  return `${PREFIX}local:${fnv64(apiKey)}`;
}

interface NodeCrypto {
  createHash(algorithm: string): { update(text: string): { digest(encoding: 'hex'): string } };
}

// node:crypto without an import statement (which would break bundles for browsers): Node ≥ 20.16, Deno, Bun.
function nodeCryptoModule(): NodeCrypto | undefined {
  try {
    return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
      'node:crypto',
    ) as NodeCrypto | undefined;
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
