// Bad input: a RequestValidationError naming the field and the rule, and no request leaves the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient, RequestValidationError } from '../../src/index.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
let server: Loopback;
beforeAll(async () => {
  server = await startLoopback(json(500, {}));
});
afterAll(() => server.close());
const client = () => new A11yClient({ apiKey: 'svc_validation_key', baseUrl: server.url });

const long = `https://shop.example.com/${'a'.repeat(2049 - 25)}`;
const cases: Array<[string, string, () => Promise<unknown>, RegExp]> = [
  ['relative url', 'url', () => client().scans.create({ url: '/checkout' }), /absolute http\(s\) URL/],
  ['ftp url', 'url', () => client().scans.create({ url: 'ftp://shop.example.com/' }), /absolute http\(s\) URL/],
  ['url over 2048', 'url', () => client().scans.create({ url: long }), /at most 2048 characters/],
  ['missing url', 'url', () => client().scans.create({} as never), /is required/],
  ['no urls', 'urls', () => client().ciChecks.create({ urls: [] }), /^must hold at least 1 item$/],
  [
    '21 urls',
    'urls',
    () => client().ciChecks.create({ urls: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) }),
    /at most 20 items/,
  ],
  [
    'one bad url among urls',
    'urls[1]',
    () => client().ciChecks.create({ urls: ['https://a.example/', 'nope'] }),
    /absolute http\(s\) URL/,
  ],
  [
    'failOn outside its enum',
    'failOn',
    () => client().ciChecks.create({ urls: ['https://a.example/'], failOn: 'SOMETIMES' as never }),
    /one of NEW_CRITICAL, ANY_CRITICAL, SERIOUS_OR_WORSE, NONE/,
  ],
  [
    'setBaseline not boolean',
    'setBaseline',
    () => client().ciChecks.create({ urls: ['https://a.example/'], setBaseline: 'yes' as never }),
    /must be a boolean/,
  ],
  ['id not a UUID', 'id', () => client().scans.get('123'), /valid UUID/],
  ['siteId not a UUID', 'siteId', () => client().scanRuns.create({ siteId: 'shop' }), /valid UUID/],
  ['journey id not a UUID', 'id', () => client().journeys.startRun('j-1'), /valid UUID/],
  ['negative limit', 'limit', () => client().sites.getTrend(id, { limit: -1 }), /must not be negative/],
  ['fractional limit', 'limit', () => client().sites.getTrend(id, { limit: 1.5 }), /must be an int/],
  ['createAndWait with a bad body', 'urls', () => client().ciChecks.createAndWait({ urls: [] }), /at least 1/],
];

describe('request pre-validation', () => {
  it.each(cases)('%s → RequestValidationError naming %s', async (_name, field, call, rule) => {
    const before = server.requests.length;
    const err = (await call().catch((e: unknown) => e)) as RequestValidationError;
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err.field).toBe(field);
    expect(err.rule).toMatch(rule);
    expect(err.message).toContain(field);
    expect(err.message).toContain('Nothing was sent');
    expect(server.requests.length).toBe(before);
  });

  it('a URL of exactly 2048 characters and 20 urls pass validation (and are sent)', async () => {
    const before = server.requests.length;
    await client()
      .scans.create({ url: long.slice(0, 2048) }, { maxRetries: 0 })
      .catch(() => undefined);
    await client()
      .ciChecks.create({ urls: Array.from({ length: 20 }, (_, i) => `https://a.example/${i}`) }, { maxRetries: 0 })
      .catch(() => undefined);
    expect(server.requests.length).toBe(before + 2);
  });
});
