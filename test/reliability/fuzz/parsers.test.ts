// Fuzzing of the SDK's parsers of untrusted input: Retry-After, 202 Location, and problem bodies (any body,
// status and headers). Arbitrary input never throws anything but the documented error classes.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  errorFromResponse,
  parseRetryAfter,
} from '../../../src/index.js';
import { resolveLocation } from '../../../src/wait/polling.js';
import { CANARY, findLeaks } from '../support.js';
import { FUZZ_RUNS, params, report, timeoutFor } from './runs.js';

const NOW = Date.UTC(2026, 10, 20, 10, 0, 0);

describe('parseRetryAfter', () => {
  const httpDate = fc
    .date({ min: new Date(0), max: new Date(Date.UTC(2200, 0, 1)), noInvalidDate: true })
    .map((d) => d.toUTCString());
  const valueArb = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.stringMatching(/^[ \t]*[+-]?\d{0,14}(\.\d{0,3})?(e[+-]?\d{1,3})?[ \t]*$/),
    fc.nat().map(String),
    fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    httpDate,
    httpDate.map((d) => d.replace('GMT', 'PST')),
    httpDate.map((d) => d.toLowerCase()),
    fc.tuple(fc.constantFrom('Mon', 'Tue', 'Xyz', 'mon'), fc.string({ maxLength: 30 })).map(([a, b]) => `${a},${b}`),
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-0',
      '-1',
      '1.5',
      '+3',
      '1e3',
      'Infinity',
      'NaN',
      '0x10',
      'Mon, 99 Foo 2026 99:99:99 GMT',
      'Thu, 01 Jan 1970 00:00:00 GMT',
    ),
    fc.constantFrom(null, undefined),
  );
  const nowArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant(NOW) },
    { weight: 3, arbitrary: fc.integer({ min: -8.64e15, max: 8.64e15 }) },
    { weight: 1, arbitrary: fc.double() }, // NaN, ±Infinity, -0 included
  );

  it(
    `returns undefined or a finite number ≥ 0 (never NaN); integer seconds are exact (${FUZZ_RUNS} cases)`,
    () => {
      const started = performance.now();
      let numbers = 0;
      fc.assert(
        fc.property(valueArb, nowArb, (value, now) => {
          const ms = parseRetryAfter(value, now);
          if (ms === undefined) return;
          numbers++;
          expect(typeof ms).toBe('number');
          expect(Number.isFinite(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
          const text = value!.trim();
          if (/^\d{1,10}$/.test(text)) expect(ms).toBe(Number(text) * 1000);
          // A malformed value is never "retry at once" by accident: signs, fractions and exponents are refused.
          if (/^[+-]|[.eE]\d/.test(text) && !/^[A-Za-z]{3},/.test(text)) expect(ms).toBeUndefined();
        }),
        params(),
      );
      report('parseRetryAfter', FUZZ_RUNS, performance.now() - started, { numbers });
    },
    timeoutFor(0.1),
  );

  it(`an HTTP-date gives the time until that date, floored at 0 (${FUZZ_RUNS} cases)`, () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date(Date.UTC(2200, 0, 1)), noInvalidDate: true }),
        fc.integer({ min: 0, max: 7.3e12 }),
        (date, now) => {
          const at = Math.floor(date.getTime() / 1000) * 1000;
          expect(parseRetryAfter(date.toUTCString(), now)).toBe(Math.max(0, at - now));
        },
      ),
      params(),
    );
  });
});

describe('resolveLocation', () => {
  const apiPrefix = (base: string) => `${new URL(base).pathname.replace(/\/+$/, '')}/api/v1/`;
  const hostArb = fc.constantFrom(
    '127.0.0.1',
    'api.example.com',
    'API.EXAMPLE.COM',
    'localhost',
    '[::1]',
    'xn--bcher-kva.example',
    'evil.example',
  );
  const baseArb = fc
    .tuple(
      fc.constantFrom('http', 'https', 'HTTP'),
      hostArb,
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.constantFrom('', '/', '/prefix', '/a/b/'),
    )
    .map(([scheme, host, port, path]) => `${scheme}://${host}${port === undefined ? '' : `:${port}`}${path}`);
  const locationArb = (base: string) =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.webPath().map((p) => `/api/v1/ci/checks${p}`),
      fc.string({ maxLength: 30 }).map((s) => `/${s}`),
      fc.string({ maxLength: 30 }).map((s) => `${base.replace(/\/+$/, '')}/${s}`),
      fc
        .tuple(fc.constantFrom('', 'user@', 'user:pw@', ':@', 'svc_key@'), hostArb, fc.string({ maxLength: 10 }))
        .map(([cred, host, p]) => `http://${cred}${host}/${p}`),
      // Forms built on the base's own origin: credentials, other schemes whose origin is the base's.
      fc
        .tuple(fc.constantFrom('user:pw@', 'svc_key@', ':@'), fc.string({ maxLength: 10 }))
        .map(([cred, p]) => base.replace('://', `://${cred}`).replace(/\/*$/, `/${p}`)),
      fc
        .constantFrom('blob:', 'view-source:', 'ws', 'wss', 'ftp')
        .map((scheme) => (scheme.endsWith(':') ? `${scheme}${base}` : base.replace(/^https?/i, scheme))),
      fc.constantFrom(
        '//evil.example/x',
        '/\\evil.example/x',
        '\\\\evil.example\\x',
        'https:evil.example',
        'http:/evil.example',
        'javascript:alert(1)',
        'data:text/plain,hi',
        'blob:http://127.0.0.1:3000/2b1f',
        'blob:https://api.example.com/2b1f',
        'ws://127.0.0.1:3000/x',
        'file:///etc/passwd',
        'mailto:a@b.c',
        ' /api/v1/ci/checks/x ',
        '\t//evil.example',
        '/%2F%2Fevil.example',
        'http://127.0.0.1:3000@evil.example/',
        'http://evil.example#@127.0.0.1:3000/',
        '',
      ),
      fc.constant(null),
    );
  const caseArb = fc
    .tuple(
      fc.oneof({ weight: 9, arbitrary: baseArb }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }),
      fc.oneof(fc.constant('/api/v1/ci/checks'), fc.string({ maxLength: 20 })),
    )
    .chain(([base, requestPath]) =>
      fc.tuple(
        fc.constant(base),
        fc.oneof(
          { weight: 9, arbitrary: fc.constant(`${base.replace(/\/+$/, '')}${requestPath}`) },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
        ),
        locationArb(base),
      ),
    );

  it(
    `never throws; a resolved URL is http(s) under the base URL's origin and path + /api/v1/, without credentials (${FUZZ_RUNS} cases)`,
    () => {
      const started = performance.now();
      let resolved = 0;
      fc.assert(
        fc.property(caseArb, ([base, requestUrl, location]) => {
          const url = resolveLocation(location, requestUrl, base);
          if (url === undefined) {
            // A relative path under the base URL's API prefix, on a valid request URL, is the service's own
            // resource: it must resolve.
            if (
              typeof location === 'string' &&
              /^\/[^/\\]/.test(location) &&
              URL.canParse(requestUrl) &&
              URL.canParse(base) &&
              new URL(requestUrl).origin === new URL(base).origin &&
              /^https?:$/.test(new URL(base).protocol) &&
              new URL(location, requestUrl).pathname.startsWith(apiPrefix(base))
            ) {
              throw new Error(`relative Location ${JSON.stringify(location)} did not resolve against ${requestUrl}`);
            }
            return;
          }
          resolved++;
          expect(typeof url).toBe('string');
          const parsed = new URL(url);
          expect(['http:', 'https:']).toContain(parsed.protocol);
          expect(parsed.origin).toBe(new URL(base).origin);
          // Only resources of this API: under the base URL's path + /api/v1/ (never another tenant's prefix).
          expect(parsed.pathname.startsWith(apiPrefix(base))).toBe(true);
          expect(parsed.username + parsed.password).toBe('');
          // The fetch that would poll it accepts it (undici refuses URLs that carry credentials).
          expect(() => new Request(url)).not.toThrow();
        }),
        params(),
      );
      report('resolveLocation', FUZZ_RUNS, performance.now() - started, { resolved });
    },
    timeoutFor(0.2),
  );
});

describe('errorFromResponse (problem bodies)', () => {
  const classes: Record<number, typeof ApiError> = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
  };
  const secretForms = [
    CANARY,
    `Bearer ${CANARY}`,
    // The same key as JSON escapes: what a server's JSON encoder may emit when it echoes the key.
    `\\u0073vc_CANARY${CANARY.slice('svc_CANARY'.length)}`,
    CANARY.replace('_', '\\u005f'),
    [...CANARY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  ];
  const echoArb = fc.constantFrom(...secretForms);
  const problemField = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
    echoArb.map((s) => `key was ${s}`),
  );
  const problemJson = fc
    .record(
      {
        type: problemField,
        title: problemField,
        status: problemField,
        detail: problemField,
        instance: problemField,
        code: fc.oneof(problemField, fc.constantFrom('API_KEY_INVALID', 'RATE_LIMITED', 'SCAN_NOT_FOUND', '')),
        traceId: problemField,
        timestamp: problemField,
        extra: fc.dictionary(fc.string({ maxLength: 10 }), problemField, { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    )
    .chain((p) =>
      // Secrets are echoed raw in the JSON text; a JSON.stringify would escape the backslashes of the escaped forms.
      fc.constantFrom(JSON.stringify(p)).map((text) => text.replace(/\\\\u00/g, '\\u00')),
    );
  const bodyArb = fc.oneof(
    { weight: 4, arbitrary: problemJson },
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    { weight: 1, arbitrary: problemJson.map((t) => t.slice(0, Math.floor(t.length / 2))) }, // truncated
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '<html>502 Bad Gateway</html>',
        'null',
        '[]',
        '"str"',
        '{"code":',
        '{"__proto__":{"code":"X"}}',
      ),
    },
  );
  const headerArb = fc.dictionary(
    fc.constantFrom('retry-after', 'content-type', 'x-trace', 'x-echo'),
    fc.oneof(
      fc.string({ maxLength: 30 }).filter((v) => !/[\r\n\0]/.test(v) && [...v].every((c) => c.charCodeAt(0) < 256)),
      fc.constantFrom(CANARY, `Bearer ${CANARY}`, '3600', '-1', 'Mon, 01 Jan 2001 00:00:00 GMT'),
    ),
    { maxKeys: 4 },
  );
  const statusArb = fc.oneof(
    fc.constantFrom(400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504, 418, 408),
    fc.integer({ min: 200, max: 599 }),
  );

  it(
    `any body, status and headers → the status's ApiError class, well-typed fields, never the secret (${FUZZ_RUNS} cases)`,
    async () => {
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(
          statusArb,
          bodyArb,
          headerArb,
          fc.boolean(),
          fc.boolean(),
          async (status, body, headers, withSecret, cut) => {
            let stream: ReadableStream<Uint8Array> | string | null = body;
            if ([204, 205, 304].includes(status))
              stream = null; // null-body statuses: Response refuses a body
            else if (cut) {
              // A body whose stream fails half-way (a connection cut while the error body streams in).
              const bytes = new TextEncoder().encode(body);
              stream = new ReadableStream({
                start(controller) {
                  controller.enqueue(bytes.subarray(0, bytes.length >> 1));
                  controller.error(new TypeError('terminated'));
                },
              });
            }
            const response = new Response(stream, { status, headers });
            const request = { method: 'GET', url: 'http://127.0.0.1:9/api/v1/sites' };
            const error = await errorFromResponse(response, request, withSecret ? CANARY : undefined);
            expect(error).toBeInstanceOf(ApiError);
            const Class = classes[status] ?? (status >= 500 ? InternalServerError : ApiError);
            expect(error.constructor).toBe(Class);
            expect(error.status).toBe(status);
            for (const field of ['code', 'title', 'detail', 'type', 'instance', 'traceId', 'timestamp'] as const) {
              expect(['string', 'undefined']).toContain(typeof error[field]);
            }
            expect(error.message.startsWith(String(status))).toBe(true);
            expect(error.method).toBe('GET');
            if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
              expect(Number.isFinite(error.retryAfterMs) && error.retryAfterMs >= 0).toBe(true);
            }
            if (withSecret) {
              const all = [
                error.message,
                error.stack,
                JSON.stringify(error),
                inspect(error, { depth: Infinity, showHidden: true }),
                JSON.stringify(error.problem ?? null),
              ].join('\n');
              expect(findLeaks(all, CANARY)).toEqual([]);
            }
          },
        ),
        params(),
      );
      report('errorFromResponse', FUZZ_RUNS, performance.now() - started);
    },
    // Bodies are read through a capped stream reader now; with the other fuzz files in parallel workers on 2
    // cores a case took up to 0.75 ms.
    timeoutFor(1.5),
  );
});
