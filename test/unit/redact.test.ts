// The API key is redacted in every spelling an encoder gives it and when cut short: in texts (redact), in parsed
// bodies (scrub), and in the errors a caller sees when the service echoes it in a redirect's host (lowercased by
// URL parsing) or in a Location query (percent-encoded) that later fails.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { A11yClient, NotFoundError, RedirectError } from '../../src/index.js';
import { MIN_SECRET_PREFIX, redact, scrub } from '../../src/internal/redact.js';
import { redactEchoedSecret } from '../../src/redact/index.js';
import { json, serveEach } from '../support/loopback.js';

const KEYS = [
  'svc_live_Q7x-9kPz_Lm2-Wd4Rt8y',
  'svc-test_k3Y_9-zz-QWERTYabc_12',
  'svc_0123456789abcdef0123456789abcdef',
];
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
const spellings = (key: string): Record<string, string> => ({
  'as given': key,
  lowercased: key.toLowerCase(),
  uppercased: key.toUpperCase(),
  'percent-encoded (every character)': [...key].map((c) => `%${hex(c).toUpperCase()}`).join(''),
  'percent-encoded twice': [...key].map((c) => `%25${hex(c)}`).join(''),
  'markdown-escaped': key.replace(/[_-]/g, '\\$&'),
  'JSON \\u-escaped': [...key].map((c) => `\\u00${hex(c)}`).join(''),
  'XML decimal references': [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'HTML hex references, upper case': [...key].map((c) => `&#X${hex(c).toUpperCase()};`).join(''),
  'HTML &lowbar;': key.replace(/_/g, '&lowbar;'),
  mixed: [...key].map((c, i) => (i % 3 === 0 ? `%${hex(c)}` : i % 3 === 1 ? c.toUpperCase() : c)).join(''),
});

describe('redact', () => {
  for (const key of KEYS) {
    it.each(Object.entries(spellings(key)))(`${key}: %s`, (_name, form) => {
      const text = `before ${form} after`;
      expect(redact(text, key)).toBe('before [redacted] after');
    });

    it(`${key}: cut short at every length from ${MIN_SECRET_PREFIX} characters, at the end of a field or inside it`, () => {
      for (let n = MIN_SECRET_PREFIX; n <= key.length; n++) {
        const cut = key.slice(0, n);
        expect(redact(`x ${cut}`, key), `${n}`).toBe('x [redacted]');
        expect(redact(`x ${cut.toLowerCase()}… y`, key), `${n}`).toBe('x [redacted]… y');
      }
      // Shorter starts are ordinary text (every key starts with svc_).
      expect(redact(`x ${key.slice(0, MIN_SECRET_PREFIX - 1)}`, key)).toBe(`x ${key.slice(0, MIN_SECRET_PREFIX - 1)}`);
    });
  }

  it('leaves text without the key as it is, and ignores secrets under 4 characters', () => {
    expect(redact('svc_ and svc_l and nothing', KEYS[0])).toBe('svc_ and svc_l and nothing');
    expect(redact('abc abc', 'abc')).toBe('abc abc');
    expect(redact('abc', undefined)).toBe('abc');
  });

  it('scrubs parsed bodies in any spelling, keys included', () => {
    const key = KEYS[1]!;
    const body = {
      detail: `token ${key.toUpperCase()}`,
      [`k-${key.toLowerCase()}`]: [{ deep: encodeURIComponent(key) }],
    };
    expect(JSON.stringify(scrub(body, key))).not.toMatch(/svc-test|SVC-TEST/i);
  });

  it('stays linear on adversarial text (a million near-misses)', () => {
    const key = KEYS[0]!;
    const text = `${key.slice(0, MIN_SECRET_PREFIX - 1)}%`.repeat(125_000);
    expect(redact(text, key)).toBe(text);
  });
});

describe('the key echoed back in errors', () => {
  const serve = serveEach();

  it.each(KEYS)('a redirect to a host named after the key (%s) shows no part of it', async (key) => {
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: `https://${key.replace(/_/g, '-')}.evil.example/x?token=${key}` });
      res.end();
    });
    const client = new A11yClient({ apiKey: key.replace(/_/g, '-'), baseUrl: api.url, maxRetries: 0 });
    const err = (await client.sites.list().catch((e: unknown) => e)) as RedirectError;
    expect(err).toBeInstanceOf(RedirectError);
    const shown = `${err.message}\n${err.location}\n${err.stack}\n${inspect(err, { depth: 10 })}`.toLowerCase();
    expect(shown).not.toContain(key.replace(/_/g, '-').toLowerCase().slice(0, MIN_SECRET_PREFIX));
    expect(err.location).toContain('[redacted]');
  });

  it.each(KEYS)(
    'a Location whose query holds the key (%s), percent-encoded, then a 404: NotFoundError.url has none of it',
    async (key) => {
      const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
      const api = await serve([
        json(
          202,
          { id, status: 'QUEUED' },
          { location: `/api/v1/scans/${id}?k=${[...key].map((c) => `%${hex(c)}`).join('')}&u=${key.toLowerCase()}` },
        ),
        json(404, { type: 'about:blank', title: 'Not found', status: 404, code: 'NOT_FOUND' }),
      ]);
      const client = new A11yClient({ apiKey: key, baseUrl: api.url, maxRetries: 0 });
      const err = (await client.scans
        .createAndWait({ url: 'https://shop.example.com/' }, { intervalMs: 1 })
        .catch((e: unknown) => e)) as NotFoundError;
      expect(err).toBeInstanceOf(NotFoundError);
      const shown = `${err.url}\n${err.message}\n${inspect(err, { depth: 10 })}`;
      expect(redact(shown, key)).toBe(shown);
      expect(err.url).toContain('[redacted]');
    },
  );
});

describe('serialised text keeps its structure, and the key as a service echoes it', () => {
  const key = KEYS[0]!;

  it('a match never starts inside a run of backslashes: any run before the key in JSON text stays even', () => {
    for (let run = 0; run <= 9; run++) {
      const raw = `${'\\'.repeat(run)}${key}"`;
      const text = JSON.stringify({ a: raw });
      const out = redact(text, key);
      expect(() => JSON.parse(out), `${run} backslashes`).not.toThrow();
      expect(out).not.toContain(key);
    }
  });

  it('redactEchoedSecret finds the key without its prefix words and in base64 or base64url at each byte offset', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const url64 = (s: string) => Buffer.from(s).toString('base64url');
    const echoes = [
      key.slice(4),
      key.slice(9),
      key.slice(4).toUpperCase(),
      b64(`u:${key}`),
      b64(`ab${key}`),
      b64(`abc${key}`),
      url64(`x${key}`),
      url64(`xy${key}`),
    ];
    for (const echo of echoes) {
      const out = redactEchoedSecret(`seen: ${echo}.`, key);
      expect(out, echo).toContain('[redacted]');
      // What is left of a base64 form is its edges: never 11 characters of the key's own.
      expect(out.length, echo).toBeLessThan(`seen: ${echo}.`.length);
    }
    expect(redactEchoedSecret(`seen: ${key.slice(4)}`, key)).toBe('seen: [redacted]');
  });

  it('the key without its prefix counts only from 16 characters of the rest: words of it elsewhere stay', () => {
    const wordy = 'svc_settings_cache_0123456789';
    expect(redactEchoedSecret('/tmp/svc-a11y-settings-Ms7ehh/max.json', wordy)).toBe(
      '/tmp/svc-a11y-settings-Ms7ehh/max.json',
    );
    expect(redactEchoedSecret('settings_cache_0123456789', wordy)).toBe('[redacted]');
  });

  it('the root redaction (redactSecret) is the spellings only: the echoed forms are the CLI’s', () => {
    expect(redact(`x ${key.slice(9)}`, key)).toBe(`x ${key.slice(9)}`);
  });
});
