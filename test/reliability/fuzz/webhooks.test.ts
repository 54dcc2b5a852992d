// Webhook verification fuzzing: generated deliveries (bodies, timestamps, signatures, header shapes, encodings,
// secrets), each optionally mutated, checked against an oracle computed here with node:crypto and the
// documented rules only. Properties: zero false accepts (an accepted delivery carries exactly the signed
// timestamp and body bytes under a configured secret), valid signatures within tolerance always accepted,
// every rejection a WebhookVerificationError with the documented reason, and nothing else ever thrown.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WebhookVerificationError,
  signWebhook,
  verifyWebhook,
  type WebhookVerificationReason,
} from '../../../src/webhooks/index.js';
import { verifyWebhookWith } from '../../../src/webhooks/verify.js';
import { FUZZ_RUNS, params, report, timeoutFor } from './runs.js';

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const NAMES = {
  event: 'X-Svc-Event',
  delivery: 'X-Svc-Delivery',
  timestamp: 'X-Svc-Timestamp',
  signature: 'X-Svc-Signature',
} as const;
type HeaderKey = keyof typeof NAMES;

// ---------------------------------------------------------------------------------------------------------
// The oracle: the documented rules, implemented independently of src/webhooks.
// ---------------------------------------------------------------------------------------------------------

const mac = (secret: string, timestampText: string, body: Uint8Array) =>
  createHmac('sha256', secret).update(`${timestampText}.`).update(body).digest();

/** A `v1=` value's digest per the documented encodings (64 hex, or base64/base64url of 32 bytes), else undefined. */
function decodeV1(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return undefined;
  const standard = value.slice(0, 43).replaceAll('-', '+').replaceAll('_', '/');
  const bytes = Buffer.from(standard, 'base64');
  // Canonical only: the 2 spare bits of the 43rd character must be zero.
  return bytes.length === 32 && bytes.toString('base64').slice(0, 43) === standard ? bytes : undefined;
}

/** What a receiver reads from a header value: the trimmed string, the first non-blank item, or all joined. */
function readValue(value: unknown, join: boolean): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!Array.isArray(value)) return undefined;
  const items = value
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!items.length) return undefined;
  return join ? items.join(', ') : items[0];
}

interface Expectation {
  accept: boolean;
  reason?: WebhookVerificationReason;
}

// ---------------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------------

type Rep = 'string' | 'uint8array' | 'buffer' | 'offset-view' | 'arraybuffer' | 'dataview';
type Encoding = 'hex' | 'HEX' | 'mixed-hex' | 'base64' | 'base64-nopad' | 'base64url';
type Shape = 'Headers' | 'lower' | 'canonical' | 'UPPER' | 'random-case' | 'arrays';
type Missing = 'absent' | 'empty' | 'blank' | 'empty-array' | 'blank-array' | 'undefined' | 'non-string';
type Mutation =
  | { kind: 'none' }
  | { kind: 'body-flip'; at: number; bit: number }
  | { kind: 'body-append'; extra: Uint8Array }
  | { kind: 'body-truncate'; drop: number }
  | { kind: 'body-replace'; other: string }
  | { kind: 'ts-shift'; by: number }
  | { kind: 'ts-text'; form: 'leading-zero' | 'plus' | 'minus' | 'decimal' | 'exponent' | 'suffix' | 'hex' | 'digits' }
  | { kind: 'sig-flip'; bit: number }
  | { kind: 'sig-truncate'; chars: number }
  | { kind: 'sig-scheme'; scheme: string }
  | { kind: 'sig-garbage'; text: string }
  | { kind: 'secret'; foreign: string };

const secretArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 90 }), // > 64 bytes: HMAC hashes long keys
  fc.constantFrom('whsec_test-Sup3r$ecret!', 'x', 'ключ', '🔑🔑'),
);
const bodyTextArb = fc.oneof(
  { weight: 5, arbitrary: fc.json({ maxDepth: 3 }) },
  {
    weight: 2,
    arbitrary: fc
      .jsonValue({ maxDepth: 2 })
      .map((v) => JSON.stringify({ type: 'scan_run.completed', data: v ?? null })),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 120 }) }, // lone surrogates, non-JSON
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '{}', '[]', 'null', '{"a":1}\n', '\uFEFF{}') },
);
const bodyArb = fc.oneof(
  {
    weight: 8,
    arbitrary: bodyTextArb.map((text) => ({ text: text as string | undefined, bytes: encoder.encode(text) })),
  },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 160 }).map((bytes) => ({ text: undefined as string | undefined, bytes })),
  },
);
const headerValueArb = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter((s) => s.trim() === s && s.length > 0 && !/[\r\n\0]/.test(s));
const toleranceArb = fc.oneof(
  fc.constant(undefined),
  fc.constant(0),
  fc.integer({ min: 1, max: 86_400 }),
  fc.double({ min: 0.001, max: 1000, noNaN: true }),
);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('body-flip' as const),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 15 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('body-append' as const),
      extra: fc.uint8Array({ minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('body-truncate' as const), drop: fc.integer({ min: 1, max: 5 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('body-replace' as const), other: bodyTextArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('ts-shift' as const),
      by: fc.oneof(fc.integer({ min: -400, max: 400 }), fc.integer({ min: -1e7, max: 1e7 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('ts-text' as const),
      form: fc.constantFrom('leading-zero', 'plus', 'minus', 'decimal', 'exponent', 'suffix', 'hex', 'digits'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sig-flip' as const), bit: fc.integer({ min: 0, max: 255 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('sig-truncate' as const), chars: fc.integer({ min: 1, max: 4 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('sig-scheme' as const),
      scheme: fc.constantFrom('v0', 'v2', 'V1', 'v1 ', ' v1', 'v11', ''),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('sig-garbage' as const), text: fc.string({ maxLength: 70 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('secret' as const), foreign: secretArb }) },
);

const caseArb = fc.record({
  secrets: fc.array(secretArb, { minLength: 1, maxLength: 3 }),
  signer: fc.nat(),
  body: bodyArb,
  rep: fc.constantFrom<Rep>('string', 'uint8array', 'buffer', 'offset-view', 'arraybuffer', 'dataview'),
  ts: fc.oneof(fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), fc.integer({ min: 0, max: 1_000_000_000_000 })),
  tolerance: toleranceArb,
  skew: fc.oneof(
    { weight: 6, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }).map((f) => ({ within: f })) }, // a fraction of the tolerance
    { weight: 1, arbitrary: fc.constantFrom(-1, 1).map((edge) => ({ edge })) }, // exactly at the edge: accepted
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: 1, max: 1e9 })
        .chain((ms) => fc.constantFrom(ms, -ms))
        .map((beyond) => ({ beyond })),
    },
  ),
  encoding: fc.constantFrom<Encoding>('hex', 'HEX', 'mixed-hex', 'base64', 'base64-nopad', 'base64url'),
  decoys: fc.array(fc.constantFrom('v0', 'wrong-v1', 'malformed-v1', 'other-scheme'), { maxLength: 3 }),
  position: fc.nat(),
  separator: fc.constantFrom(', ', ',', ' ', ' ,  ', '\t'),
  shape: fc.constantFrom<Shape>('Headers', 'lower', 'canonical', 'UPPER', 'random-case', 'arrays'),
  caseBits: fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
  pad: fc.constantFrom('', ' ', '\t', '  \t '),
  event: headerValueArb,
  delivery: headerValueArb,
  missing: fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.record({
        header: fc.constantFrom<HeaderKey>('event', 'delivery', 'timestamp', 'signature'),
        how: fc.constantFrom<Missing>(
          'absent',
          'empty',
          'blank',
          'empty-array',
          'blank-array',
          'undefined',
          'non-string',
        ),
      }),
    },
  ),
  mutation: mutationArb,
  webCrypto: fc.boolean(),
  random: fc.uint8Array({ minLength: 96, maxLength: 96 }),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------------------
// Building a delivery from a case
// ---------------------------------------------------------------------------------------------------------

function encode(digest: Uint8Array, encoding: Encoding): string {
  const b = Buffer.from(digest);
  switch (encoding) {
    case 'hex':
      return b.toString('hex');
    case 'HEX':
      return b.toString('hex').toUpperCase();
    case 'mixed-hex':
      return [...b.toString('hex')].map((c, i) => (i % 3 ? c : c.toUpperCase())).join('');
    case 'base64':
      return b.toString('base64');
    case 'base64-nopad':
      return b.toString('base64').replace(/=+$/, '');
    case 'base64url':
      return b.toString('base64url');
  }
}

function bodyValue(
  bytes: Uint8Array,
  text: string | undefined,
  rep: Rep,
): string | Uint8Array | ArrayBuffer | DataView {
  if (rep === 'string' && text !== undefined) return text;
  switch (rep) {
    case 'buffer':
      return Buffer.from(bytes);
    case 'offset-view': {
      // A view into a larger buffer (as Node's pooled Buffers are): only the view's bytes are the body.
      const big = new Uint8Array(bytes.length + 16).fill(0x7b);
      big.set(bytes, 7);
      return big.subarray(7, 7 + bytes.length);
    }
    case 'arraybuffer':
      return bytes.slice().buffer;
    case 'dataview': {
      const big = new Uint8Array(bytes.length + 8).fill(0x22);
      big.set(bytes, 3);
      return new DataView(big.buffer, 3, bytes.length);
    }
    default:
      return new Uint8Array(bytes);
  }
}

function headerName(key: HeaderKey, shape: Shape, caseBits: boolean[]): string {
  const canonical = NAMES[key];
  switch (shape) {
    case 'canonical':
      return canonical;
    case 'UPPER':
      return canonical.toUpperCase();
    case 'random-case':
      return [...canonical].map((c, i) => (caseBits[i % caseBits.length] ? c.toUpperCase() : c.toLowerCase())).join('');
    default:
      return canonical.toLowerCase();
  }
}

interface Built {
  options: { body: unknown; headers: unknown; secret: string[]; toleranceSeconds?: number; now: () => number };
  expected: Expectation;
  /** Byte-level no-op: the delivered timestamp text and body bytes are the signed ones, under an accepted secret. */
  noop: boolean;
  delivered: { tsText?: string; event?: string; delivery?: string; text?: string; bytes: Uint8Array; rep: Rep };
}

function build(c: Case): Built {
  const secrets = c.secrets;
  const m = c.mutation;
  const signerSecret = m.kind === 'secret' ? m.foreign : secrets[c.signer % secrets.length]!;
  const tolerance = c.tolerance;
  const tolMs = (tolerance ?? 300) * 1000;
  const signedTs = String(c.ts);
  const signedBytes = c.body.bytes;
  const signature = mac(signerSecret, signedTs, signedBytes);

  // Delivered timestamp text.
  let tsText = signedTs;
  if (m.kind === 'ts-shift' && m.by !== 0) tsText = String(Math.max(0, c.ts + m.by));
  if (m.kind === 'ts-text') {
    tsText = {
      'leading-zero': `0${signedTs}`,
      plus: `+${signedTs}`,
      minus: `-${signedTs}`,
      decimal: `${signedTs}.0`,
      exponent: `${signedTs}e0`,
      suffix: `${signedTs}s`,
      hex: `0x${c.ts.toString(16)}`,
      digits: signedTs.padStart(16, '0'), // 16 digits: beyond the documented 15
    }[m.form];
  }
  // Delivered body.
  let text = c.body.text;
  let bytes = signedBytes;
  const stringRep = c.rep === 'string' && text !== undefined;
  if (m.kind === 'body-flip') {
    if (stringRep && text!.length > 0) {
      const i = m.at % text!.length;
      text = text!.slice(0, i) + String.fromCharCode(text!.charCodeAt(i) ^ (1 << m.bit)) + text!.slice(i + 1);
    } else if (bytes.length > 0) {
      bytes = bytes.slice();
      bytes[m.at % bytes.length]! ^= 1 << (m.bit % 8);
      text = undefined;
    } else {
      bytes = Uint8Array.of(m.bit);
      text = stringRep ? String.fromCharCode(m.bit) : undefined;
    }
  }
  if (m.kind === 'body-append') {
    bytes = new Uint8Array([...signedBytes, ...m.extra]);
    text = stringRep ? text + String.fromCharCode(...m.extra) : undefined;
  }
  if (m.kind === 'body-truncate') {
    bytes = signedBytes.slice(0, Math.max(0, signedBytes.length - m.drop));
    text = stringRep ? text!.slice(0, Math.max(0, text!.length - m.drop)) : undefined;
  }
  if (m.kind === 'body-replace') {
    text = m.other;
    bytes = encoder.encode(m.other);
  }
  if (stringRep && text !== undefined) bytes = encoder.encode(text); // the UTF-8 bytes a string stands for
  const rep: Rep = stringRep && text !== undefined ? 'string' : c.rep === 'string' ? 'uint8array' : c.rep;

  // Delivered signature entries.
  let digest: Uint8Array = signature;
  if (m.kind === 'sig-flip') {
    digest = Buffer.from(signature);
    digest[m.bit >> 3]! ^= 1 << (m.bit & 7);
  }
  let real = `v1=${encode(digest, c.encoding)}`;
  if (m.kind === 'sig-truncate') real = real.slice(0, real.length - m.chars);
  if (m.kind === 'sig-scheme') real = `${m.scheme}=${encode(digest, c.encoding)}`;
  if (m.kind === 'sig-garbage') real = m.text;
  const decoys = c.decoys.map((d, i) => {
    const random = c.random.subarray((i * 32) % 96, ((i * 32) % 96) + 32);
    if (d === 'v0') return `v0=${Buffer.from(random).toString('hex')}`;
    if (d === 'wrong-v1') return `v1=${encode(random, c.encoding)}`;
    if (d === 'other-scheme') return `t=${c.ts}`;
    return 'v1=not-a-digest';
  });
  const entries = [...decoys];
  entries.splice(c.position % (decoys.length + 1), 0, real);

  // Headers in the generated shape.
  const shape: Shape = c.shape;
  const values: Record<HeaderKey, unknown> = {
    event: c.pad + c.event + c.pad,
    delivery: c.pad + c.delivery + c.pad,
    timestamp: c.pad + tsText + c.pad,
    signature: c.pad + entries.join(c.separator) + c.pad,
  };
  if (shape === 'arrays') {
    values.event = ['', ` ${c.event}`, 'ignored-second'];
    values.delivery = [c.delivery];
    values.timestamp = ['  ', tsText];
    values.signature = entries.map((e) => ` ${e} `); // repeated signature headers are merged
  }
  if (c.missing) {
    const how = shape === 'Headers' && !['absent', 'empty', 'blank'].includes(c.missing.how) ? 'absent' : c.missing.how;
    values[c.missing.header] = {
      absent: undefined,
      empty: '',
      blank: ' \t ',
      'empty-array': [],
      'blank-array': ['', '  '],
      undefined: undefined,
      'non-string': 42,
    }[how];
    if (how === 'absent') delete values[c.missing.header];
  }
  let headers: unknown;
  if (shape === 'Headers') {
    try {
      const h = new Headers();
      for (const key of Object.keys(values) as HeaderKey[])
        if (typeof values[key] === 'string') h.set(NAMES[key], values[key] as string);
      headers = h;
    } catch {
      headers = undefined; // a value Headers refuses (e.g. a non-Latin-1 character): use the plain shape below
    }
  }
  if (headers === undefined) {
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(NAMES) as HeaderKey[])
      if (key in values) record[headerName(key, shape, c.caseBits)] = values[key];
    headers = record;
  }

  // What a receiver reads (Headers trims HTTP whitespace and joins repeats with ", ", as readValue does).
  const read = (key: HeaderKey) => readValue(values[key], key === 'signature');
  const event = read('event');
  const delivery = read('delivery');
  const ts = read('timestamp');
  const sig = read('signature');

  const ms =
    'within' in c.skew
      ? c.skew.within * tolMs
      : 'edge' in c.skew
        ? c.skew.edge * tolMs
        : c.skew.beyond + Math.sign(c.skew.beyond) * tolMs;
  const nowMs = c.ts * 1000 + ms;

  // The oracle, in the documented order of checks.
  let expected: Expectation;
  const configured = (digestBytes: Buffer, tsValue: string) =>
    secrets.some((s) => mac(s, tsValue, bytes).equals(digestBytes));
  if (event === undefined || delivery === undefined || ts === undefined || sig === undefined)
    expected = { accept: false, reason: 'MISSING_HEADER' };
  else if (!/^[0-9]{1,15}$/.test(ts)) expected = { accept: false, reason: 'INVALID_TIMESTAMP' };
  else if (Math.abs(nowMs - Number(ts) * 1000) > tolMs)
    expected = { accept: false, reason: 'TIMESTAMP_OUT_OF_TOLERANCE' };
  else {
    const candidates = sig
      .split(/[\s,]+/)
      .filter((t) => t.startsWith('v1='))
      .map((t) => decodeV1(t.slice(3)))
      .filter((d): d is Buffer => d !== undefined);
    if (!candidates.length) expected = { accept: false, reason: 'MALFORMED_SIGNATURE' };
    else if (!candidates.some((d) => configured(d, ts))) expected = { accept: false, reason: 'SIGNATURE_MISMATCH' };
    else {
      let json = true;
      try {
        JSON.parse(rep === 'string' ? text! : strictUtf8.decode(bytes));
      } catch {
        json = false;
      }
      expected = json ? { accept: true } : { accept: false, reason: 'INVALID_PAYLOAD' };
    }
  }
  const secretAccepted = secrets.some((s) => mac(s, signedTs, signedBytes).equals(signature));
  const noop =
    ts === signedTs &&
    Buffer.from(bytes).equals(Buffer.from(signedBytes)) &&
    secretAccepted &&
    Buffer.from(digest).equals(signature);

  return {
    options: {
      body: bodyValue(bytes, text, rep),
      headers,
      secret: secrets,
      ...(tolerance === undefined ? {} : { toleranceSeconds: tolerance }),
      now: () => nowMs,
    },
    expected,
    noop,
    delivered: { tsText: ts, event, delivery, text, bytes, rep },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------

describe('verifyWebhook fuzzing', () => {
  it(
    `generated and mutated deliveries: zero false accepts, valid ones accepted, only WebhookVerificationError (${FUZZ_RUNS} cases)`,
    async () => {
      const stats = { cases: 0, accepted: 0, rejected: 0, mutatedRejected: 0, mutatedNoop: 0, webCrypto: 0 };
      const reasons = new Map<string, number>();
      const noops = new Map<string, number>();
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const b = build(c);
          let result: Awaited<ReturnType<typeof verifyWebhook>> | undefined;
          let error: unknown;
          try {
            result = c.webCrypto
              ? await verifyWebhookWith(b.options as never, { forceWebCrypto: true })
              : await verifyWebhook(b.options as never);
          } catch (e) {
            error = e;
          }
          stats.cases++;
          if (c.webCrypto) stats.webCrypto++;
          if (error !== undefined) {
            // Only the documented error type, with the reason the documented rules give.
            if (!(error instanceof WebhookVerificationError))
              throw new Error(`unexpected exception type: ${String(error)}`);
            expect(error.name).toBe('WebhookVerificationError');
            expect(b.expected.accept, `rejected a valid delivery: ${error.reason} ${error.message}`).toBe(false);
            expect(error.reason).toBe(b.expected.reason);
            // Messages never carry a secret (long, non-numeric ones: a digit run could match a timestamp).
            for (const s of c.secrets) if (s.length >= 12 && /\D/.test(s)) expect(error.message).not.toContain(s);
            stats.rejected++;
            reasons.set(error.reason, (reasons.get(error.reason) ?? 0) + 1);
            if (c.mutation.kind !== 'none') stats.mutatedRejected++;
            return;
          }
          // Accepted: never a false accept.
          expect(b.noop, 'accepted a delivery whose signed timestamp, body or secret was changed').toBe(true);
          expect(b.expected).toEqual({ accept: true });
          expect(result!.id).toBe(b.delivered.delivery);
          expect(result!.type).toBe(b.delivered.event);
          expect(result!.timestamp).toBe(Number(b.delivered.tsText));
          expect(result!.payload).toEqual(
            JSON.parse(b.delivered.rep === 'string' ? b.delivered.text! : strictUtf8.decode(b.delivered.bytes)),
          );
          stats.accepted++;
          if (c.mutation.kind !== 'none') {
            stats.mutatedNoop++;
            noops.set(`noop:${c.mutation.kind}`, (noops.get(`noop:${c.mutation.kind}`) ?? 0) + 1);
          }
        }),
        params(),
      );
      report('verifyWebhook', stats.cases, performance.now() - started, {
        ...stats,
        ...Object.fromEntries(reasons),
        ...Object.fromEntries(noops),
      });
      // The generator must exercise both sides, or the property proves nothing.
      expect(stats.accepted).toBeGreaterThan(FUZZ_RUNS * 0.1);
      expect(stats.mutatedRejected).toBeGreaterThan(FUZZ_RUNS * 0.1);
    },
    timeoutFor(1),
  );

  it(
    `arbitrary option values (any type, any shape) only ever throw WebhookVerificationError (${FUZZ_RUNS} cases)`,
    async () => {
      const started = performance.now();
      const wild = fc.record(
        {
          body: fc.oneof(fc.anything(), fc.string(), fc.uint8Array()),
          headers: fc.oneof(
            fc.anything(),
            fc.dictionary(
              fc.string(),
              fc.oneof(fc.string(), fc.array(fc.oneof(fc.string(), fc.anything())), fc.anything()),
            ),
            fc.dictionary(
              fc.constantFrom('x-svc-event', 'x-svc-delivery', 'x-svc-timestamp', 'x-svc-signature', 'X-SVC-SIGNATURE'),
              fc.oneof(fc.string(), fc.anything()),
            ),
          ),
          secret: fc.oneof(fc.anything(), fc.string(), fc.array(fc.oneof(fc.string(), fc.anything()))),
          toleranceSeconds: fc.anything(),
          now: fc.oneof(
            fc.constant(undefined),
            fc.anything().map((v) => () => v),
          ),
        },
        { requiredKeys: [] },
      );
      const optionsArb = fc.oneof({ weight: 9, arbitrary: wild }, { weight: 1, arbitrary: fc.anything() });
      await fc.assert(
        fc.asyncProperty(optionsArb, async (options) => {
          let accepted = false;
          try {
            await verifyWebhook(options as never);
            accepted = true;
          } catch (error) {
            if (!(error instanceof WebhookVerificationError))
              throw new Error(`unexpected exception type: ${String(error)}`);
          }
          // Random values never carry a valid MAC under a configured secret.
          expect(accepted).toBe(false);
        }),
        params(),
      );
      report('verifyWebhook (arbitrary options)', FUZZ_RUNS, performance.now() - started);
    },
    timeoutFor(0.5),
  );

  it(
    `signWebhook output equals an independent node:crypto signature and always verifies (${FUZZ_RUNS} cases)`,
    async () => {
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(
          secretArb,
          fc.oneof(
            fc.json(),
            fc
              .uint8Array({ maxLength: 64 })
              .map((b) => encoder.encode(JSON.stringify(Buffer.from(b).toString('latin1')))),
          ),
          fc.integer({ min: 0, max: 1_000_000_000_000 }),
          fc.constantFrom<'hex' | 'base64'>('hex', 'base64'),
          headerValueArb,
          async (secret, body, timestamp, encoding, id) => {
            const headers = await signWebhook({ body, secret, timestamp, encoding, id, type: 'scan_run.completed' });
            const bytes = typeof body === 'string' ? encoder.encode(body) : body;
            expect(headers['X-Svc-Signature']).toBe(`v1=${mac(secret, String(timestamp), bytes).toString(encoding)}`);
            expect(headers['X-Svc-Timestamp']).toBe(String(timestamp));
            const event = await verifyWebhook({ body, headers, secret, now: () => timestamp * 1000 });
            expect(event.id).toBe(id);
          },
        ),
        params(),
      );
      report('signWebhook round trip', FUZZ_RUNS, performance.now() - started);
    },
    timeoutFor(0.5),
  );
});
