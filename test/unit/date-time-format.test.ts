// `format: date-time` is RFC 3339 §5.6: `T`/`Z` in either case, any fraction, `±hh:mm` offsets, and leap seconds
// (`:60`, on 23:59 UTC). zod's z.iso.datetime() refuses lower case and leap seconds, so the generator emits
// z.stringFormat('date-time', isRfc3339DateTime) (scripts/generate.mjs); these tests pin the check, the generated
// schemas, and `validateResponses` through the client. Cases follow JSON-Schema-Test-Suite's date-time file.
import { afterEach, describe, expect, it } from 'vitest';
import { zTrendPoint } from '../../generated/zod.gen.js';
import { zV1JourneyResponse } from '../../generated/zod.requests.gen.js';
import { A11yClient, ResponseValidationError } from '../../src/index.js';
import { isRfc3339DateTime } from '../../src/internal/date-time.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const accepted: Array<[string, string]> = [
  ['upper-case T and Z', '1963-06-19T08:30:06Z'],
  ['lower-case t and z', '1963-06-19t08:30:06.283185z'],
  ['lower-case t with an offset', '2026-05-01t12:00:00+02:00'],
  ['a fraction of one digit', '2026-05-01T12:00:00.1Z'],
  ['a fraction of nine digits', '2026-05-01T12:00:00.123456789Z'],
  ['a negative offset', '2026-05-01T12:00:00-05:30'],
  ['offset -00:00 (unknown local offset, §4.3)', '2026-05-01T12:00:00-00:00'],
  ['offset +23:59', '2026-05-01T12:00:00+23:59'],
  ['a leap second, UTC', '1998-12-31T23:59:60Z'],
  ['a leap second, lower case, with a fraction', '1998-12-31t23:59:60.999z'],
  ['a leap second at 15:59 with offset -08:00 (23:59 UTC)', '1998-12-31T15:59:60.123-08:00'],
  ['a leap second at 00:59 with offset +01:00 (23:59 UTC the day before)', '1999-01-01T00:59:60+01:00'],
  ['29 February of a leap year', '2024-02-29T00:00:00Z'],
  ['29 February 2000 (divisible by 400)', '2000-02-29T00:00:00Z'],
  ['31 December', '2026-12-31T23:59:59Z'],
  ['year 0000', '0000-01-01T00:00:00Z'],
];

const refused: Array<[string, unknown]> = [
  ['garbage', 'yesterday'],
  ['a US date', '06/19/1963 08:30:06 PST'],
  ['an ordinal date (ISO 8601, not RFC 3339)', '2013-350T01:01:01Z'],
  ['no offset', '2026-05-01T12:00:00'],
  ['no seconds', '2026-05-01T12:00Z'],
  ['a space instead of T', '2026-05-01 12:00:00Z'],
  ['a date only', '2026-05-01'],
  ['second 61', '1998-12-31T23:59:61Z'],
  ['a leap second on the wrong minute', '1998-12-31T23:58:60Z'],
  ['a leap second on the wrong hour', '1998-12-31T22:59:60Z'],
  ['a leap second at 23:59 local that is not 23:59 UTC', '1998-12-31T23:59:60+01:00'],
  ['hour 24', '2026-05-01T24:00:00Z'],
  ['minute 60', '2026-05-01T12:60:00Z'],
  ['month 13', '2026-13-01T12:00:00Z'],
  ['month 00', '2026-00-01T12:00:00Z'],
  ['day 00', '2026-05-00T12:00:00Z'],
  ['31 April', '2026-04-31T12:00:00Z'],
  ['30 February', '2024-02-30T12:00:00Z'],
  ['29 February of a common year', '2026-02-29T12:00:00Z'],
  ['29 February 1900 (divisible by 100, not 400)', '1900-02-29T12:00:00Z'],
  ['offset hour 24', '2026-05-01T12:00:00-24:00'],
  ['offset minute 60', '2026-05-01T12:00:00+01:60'],
  ['an offset without a colon', '2026-05-01T12:00:00+0200'],
  ['Z after an offset', '1963-06-19T08:30:06.28123+01:00Z'],
  ['an empty fraction', '2026-05-01T12:00:00.Z'],
  ['a non-padded month', '2026-5-01T12:00:00Z'],
  ['non-ASCII digits', '১৯৬৩-06-19T08:30:06Z'],
  ['a trailing newline', '2026-05-01T12:00:00Z\n'],
  ['a leading space', ' 2026-05-01T12:00:00Z'],
  ['empty', ''],
  ['a number', 1714564800000],
];

describe('isRfc3339DateTime', () => {
  it.each(accepted)('accepts %s: %s', (_name, value) => {
    expect(isRfc3339DateTime(value)).toBe(true);
  });
  it.each(refused.filter((c): c is [string, string] => typeof c[1] === 'string'))('refuses %s: %j', (_name, value) => {
    expect(isRfc3339DateTime(value)).toBe(false);
  });
});

describe('generated schemas (both modules) use it', () => {
  const schemas = {
    'zod.gen zTrendPoint.finishedAt': (v: unknown) => zTrendPoint.safeParse({ finishedAt: v }).success,
    'zod.requests.gen zV1JourneyResponse.createdAt': (v: unknown) =>
      zV1JourneyResponse.safeParse({ id: 'j1', createdAt: v }).success,
  };
  // One test a schema (the place that could lose the format); every case is checked in it, named when it fails.
  it.each(Object.entries(schemas))(
    '%s accepts every RFC 3339 date-time above and refuses the rest',
    (_name, passes) => {
      for (const [label, value] of accepted) expect(passes(value), `accepts ${label}`).toBe(true);
      for (const [label, value] of refused) expect(passes(value), `refuses ${label}`).toBe(false);
    },
  );
});

describe('validateResponses through the client', () => {
  const siteId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const trendWith = async (finishedAt: string) => {
    server = await startLoopback(
      json(200, { siteId, standard: 'WCAG22_AA', points: [{ scanRunId: 'r1', finishedAt, totalViolations: 3 }] }),
    );
    return new A11yClient({
      apiKey: 'svc_date_time_key',
      baseUrl: server.url,
      validateResponses: true,
      maxRetries: 0,
    }).sites.getTrend(siteId);
  };

  it.each(['1998-12-31t23:59:60z', '1998-12-31T15:59:60.123-08:00', '2026-05-01t12:00:00.5+02:00'])(
    'an answer with %s is accepted',
    async (finishedAt) => {
      const trend = await trendWith(finishedAt);
      expect(trend.points?.[0]?.finishedAt).toBe(finishedAt);
    },
  );

  it.each(['2026-02-30T12:00:00Z', 'last tuesday'])(
    'an answer with %s → ResponseValidationError naming the field and the RFC',
    async (finishedAt) => {
      const err = (await trendWith(finishedAt).catch((e: unknown) => e)) as ResponseValidationError;
      expect(err).toBeInstanceOf(ResponseValidationError);
      expect(err.field).toBe('body.points[0].finishedAt');
      expect(err.message).toContain('must be an RFC 3339 date-time');
    },
  );
});
