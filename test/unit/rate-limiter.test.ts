// The client-side token bucket spaces requests to the configured rate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { TokenBucket } from '../../src/rate-limiter.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback(json(200, []));
});
afterAll(() => server.close());

describe('TokenBucket', () => {
  it('lets a burst through at once, then spaces requests at the rate', async () => {
    const bucket = new TokenBucket(1200, 2); // 20 per second: one every 50 ms
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(Array.from({ length: 6 }, () => bucket.take().then(() => times.push(Date.now() - started))));
    times.sort((a, b) => a - b);
    expect(times[1]).toBeLessThan(45); // the burst of 2 (the next token is due at 50 ms)
    expect(times[5]).toBeGreaterThanOrEqual(190); // 4 more at 50 ms each
    expect(times[5]).toBeLessThan(600);
  });

  it('an aborted waiter rejects promptly and does not block the ones behind it', async () => {
    const bucket = new TokenBucket(60, 1); // one per second
    await bucket.take();
    const controller = new AbortController();
    const waiting = bucket.take(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
  });
});

describe('client rateLimit option', () => {
  it('parallel calls are spaced so the server sees at most the configured rate', async () => {
    const client = new A11yClient({ apiKey: 'svc_rate_key', baseUrl: server.url, rateLimit: { requestsPerMinute: 600 } }); // 10/s
    // Warm-up: the process's first fetch loads undici (tens of ms under load) after its token was granted,
    // which would shorten the first gap the server sees; the spacing under test is the bucket's.
    await client.sites.list();
    const before = server.requests.length;
    const started = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => client.sites.list()));
    const seen = server.requests.slice(before);
    expect(seen).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    const gaps = seen.slice(1).map((r, i) => r.at - seen[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(80);
  });
});

describe('rateLimit validation and aborts', () => {
  it.each([
    [{ requestsPerMinute: 120, burst: 0.5 }, /burst/],
    [{ requestsPerMinute: 120, burst: 0 }, /burst/],
    [{ requestsPerMinute: Infinity }, /requestsPerMinute/],
    [{ requestsPerMinute: Number.NaN }, /requestsPerMinute/],
  ])('%j is refused at construction (it would stall every call)', (rateLimit, message) => {
    expect(() => new A11yClient({ apiKey: 'svc_rate_key', baseUrl: 'https://a.example', rateLimit })).toThrow(message);
  });

  it('a caller queued behind others is released as soon as its signal aborts, and takes no token', async () => {
    const bucket = new TokenBucket(60, 1); // one per second
    await bucket.take();
    const first = bucket.take(); // queued: due in ~1 s
    const started = Date.now();
    const aborted = bucket.take(AbortSignal.timeout(100)); // queued behind `first`
    await expect(aborted).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(600);
    await first;
    const next = Date.now();
    await bucket.take(); // the aborted caller took no token: this one waits one interval, not two
    expect(Date.now() - next).toBeLessThan(1500);
  });
});
