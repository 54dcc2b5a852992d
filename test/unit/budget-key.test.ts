// Every API key gets its own budget namespace on every runtime: SHA-256 from Web Crypto, else
// node:crypto (the same digest); with neither, the in-process store keeps keys apart with a plain hash, and a
// shared store is refused: every call rejects with a ConfigurationError naming rateLimit.store, nothing sent.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A11yClient, ConfigurationError, type RateLimitStore } from '../../src/index.js';
import { budgetKey } from '../../src/rate-limit/budget.js';
import { MemoryRateLimitStore } from '../../src/core/rate-limit-store.js';
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
  // Counts what would have been sent.
  const counting = () => {
    const sent: string[] = [];
    const fetch = (async (url: string) => {
      sent.push(url);
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    return { sent, fetch };
  };
  const sharedStores: Array<[string, () => RateLimitStore]> = [
    ['a RedisRateLimitStore', () => new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' })],
    ['a store of your own', () => ({ reserve: async () => ({ waitMs: 0 }), pause: async () => undefined })],
  ];

  it.each(sharedStores)(
    '%s is refused: every call rejects with ConfigurationError naming rateLimit.store; nothing is sent',
    async (_name, makeStore) => {
      const store = makeStore();
      withoutAnyHash();
      const { sent, fetch } = counting();
      const client = new A11yClient({
        apiKey: keys[0],
        baseUrl: 'https://a11y.example.com',
        fetch,
        rateLimit: { requestsPerMinute: 120, store },
      });
      for (let i = 0; i < 2; i++) {
        const error = await client.sites.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toMatch(/^rateLimit\.store: a shared store needs SHA-256/);
      }
      expect(sent).toEqual([]);
      if (store instanceof RedisRateLimitStore) await store.close();
    },
  );

  it.each<[string, () => RateLimitStore | undefined]>([
    ['the default in-process store', () => undefined],
    ['a MemoryRateLimitStore of your own', () => new MemoryRateLimitStore()],
  ])('%s is used (it never leaves the process)', async (_name, makeStore) => {
    withoutAnyHash();
    const { sent, fetch } = counting();
    const client = new A11yClient({
      apiKey: keys[0],
      baseUrl: 'https://a11y.example.com',
      fetch,
      rateLimit: { requestsPerMinute: 6000, store: makeStore() },
    });
    expect(await client.sites.list()).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('with node:crypto only, a shared store is used', async () => {
    withoutWebCrypto();
    const { sent, fetch } = counting();
    const keysSeen: string[] = [];
    const store: RateLimitStore = {
      reserve: async (key) => {
        keysSeen.push(key);
        return { waitMs: 0 };
      },
      pause: async () => undefined,
    };
    const client = new A11yClient({
      apiKey: keys[0],
      baseUrl: 'https://a11y.example.com',
      fetch,
      rateLimit: { requestsPerMinute: 6000, store },
    });
    expect(await client.sites.list()).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(keysSeen).toEqual([sha(keys[0]!)]);
  });
});
