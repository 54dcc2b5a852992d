// Every API key gets its own budget namespace on every runtime (issue 22): SHA-256 from Web Crypto, else
// node:crypto (the same digest); with neither, the in-process store keeps keys apart with a plain hash, and a
// shared store is refused at construction with an error naming rateLimit.store.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A11yClient, ConfigurationError } from '../../src/index.js';
import { budgetKey } from '../../src/rate-limit/budget.js';
import { MemoryRateLimitStore } from '../../src/rate-limit/store.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';

const sha = (key: string) => `svc-a11y:rl:v1:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
const keys = ['svc_key_one_0123456789', 'svc_key_two_0123456789', 'svc_key_one_0123456788'];
afterEach(() => vi.unstubAllGlobals());

// What a browser page over plain http has: no crypto.subtle (and no process, so no node:crypto).
const withoutWebCrypto = () => vi.stubGlobal('crypto', undefined);
const withoutAnyHash = () => {
  withoutWebCrypto();
  vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
};

describe('budgetKey', () => {
  it.each([
    ['with Web Crypto', () => undefined],
    ['without Web Crypto (node:crypto)', withoutWebCrypto],
  ])('%s: the first 32 hex digits of the SHA-256, one per key', async (_name, setUp) => {
    setUp();
    const got = await Promise.all(keys.map((k) => budgetKey(k)));
    expect(got).toEqual(keys.map(sha));
    expect(new Set(got).size).toBe(keys.length);
  });

  it('without any SHA-256: still one namespace per key (in-process only), never the key itself', async () => {
    withoutAnyHash();
    const got = await Promise.all(keys.map((k) => budgetKey(k)));
    expect(new Set(got).size).toBe(keys.length);
    for (const [i, key] of got.entries()) {
      expect(key).toMatch(/^svc-a11y:rl:v1:local:[0-9a-f]{16}$/);
      expect(key).not.toContain(keys[i]!.slice(4));
    }
  });
});

describe('a shared store where no SHA-256 exists', () => {
  it.each([
    ['a RedisRateLimitStore', () => new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' })],
    ['a store of your own', () => ({ reserve: async () => ({ waitMs: 0 }), pause: async () => undefined })],
  ])('%s is refused at construction, naming rateLimit.store', async (_name, makeStore) => {
    const store = makeStore();
    withoutAnyHash();
    const build = () => new A11yClient({ apiKey: keys[0], baseUrl: 'https://a11y.example.com', rateLimit: { requestsPerMinute: 120, store } });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/^rateLimit\.store: a shared store needs SHA-256/);
    if (store instanceof RedisRateLimitStore) await store.close();
  });

  it('the in-process store is accepted (it never leaves the process)', () => {
    withoutAnyHash();
    expect(() => new A11yClient({ apiKey: keys[0], baseUrl: 'https://a11y.example.com', rateLimit: { requestsPerMinute: 120, store: new MemoryRateLimitStore() } })).not.toThrow();
    expect(() => new A11yClient({ apiKey: keys[0], baseUrl: 'https://a11y.example.com', rateLimit: { requestsPerMinute: 120 } })).not.toThrow();
  });

  it('with node:crypto only, a shared store is accepted', () => {
    withoutWebCrypto();
    expect(() => new A11yClient({ apiKey: keys[0], baseUrl: 'https://a11y.example.com', rateLimit: { requestsPerMinute: 120, store: { reserve: async () => ({ waitMs: 0 }), pause: async () => undefined } } })).not.toThrow();
  });
});
