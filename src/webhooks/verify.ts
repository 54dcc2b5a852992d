import { hmacSha256, toBase64, toHex, type HmacOptions } from './crypto.js';
import { WebhookVerificationError, fail } from './errors.js';
import { HEADER_NAMES, readHeader, type WebhookHeadersInput } from './headers.js';
import type { ReplayStore } from './replay-store.js';

/** Options for {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * The RAW request body, exactly as received. A parsed object is rejected (`INVALID_BODY`)
   * because re-serialising JSON changes the signed bytes.
   */
  body: string | Uint8Array | ArrayBuffer;
  /** Request headers: a Fetch `Headers` or a plain (e.g. Node `IncomingHttpHeaders`) object. */
  headers: WebhookHeadersInput;
  /** Signing secret (UTF-8, used verbatim), or several during rotation: any match is accepted. */
  secret: string | readonly string[];
  /**
   * Maximum allowed |now − timestamp| in seconds; exactly at the edge is accepted.
   * @default 300
   */
  toleranceSeconds?: number | undefined;
  /**
   * Millisecond clock.
   * @default Date.now
   */
  now?: (() => number) | undefined;
  /**
   * When given, a delivery whose signed material (timestamp and raw body) was seen before, within its tolerance
   * window, is rejected with `REPLAYED`, whatever its `X-Svc-Delivery` id; a store with no room for a live entry
   * refuses with `REPLAY_STORE_FULL`, one that fails or cannot be reached with `REPLAY_STORE_UNAVAILABLE`, and one that may forget live entries with `REPLAY_STORE_EVICTION`. Only a delivery whose signature verified and whose body parsed reaches the
   * store. It is not an idempotency key: the service's retries are signed afresh (new timestamp, same id), so
   * deduplicate processing on `event.id`.
   */
  replayStore?: ReplayStore | undefined;
}

/** A verified webhook delivery. */
export interface WebhookEvent {
  /** Delivery id from `X-Svc-Delivery` (stable across retries). Not covered by the signature. */
  id: string;
  /** Event kind from `X-Svc-Event`, e.g. `scan_run.completed`. Not covered by the signature: trust the payload. */
  type: string;
  /** Delivery timestamp from `X-Svc-Timestamp`, in seconds. */
  timestamp: number;
  /** `JSON.parse` of the body; validate its shape before use. */
  payload: unknown;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Lowercase (what Node and Fetch use), so header lookups need no case conversion per call.
const LOWER_NAMES = /* @__PURE__ */ HEADER_NAMES.map((name) => name.toLowerCase());
// One `v1=` value: 64 hex chars (any case) or base64/base64url of exactly 32 bytes with an optional pad.
// 43 base64 chars carry 258 bits; the last one must leave the 2 spare bits zero (canonical only), so a
// lenient decoder's aliases of a valid MAC are rejected rather than guessed at.
const V1_DIGEST = /^v1=(?:[\dA-Fa-f]{64}|[\w+/-]{42}[AEIMQUYcgkosw048]=?)$/;
// Public on purpose: the replay key must be a function of the signed material alone, the same in every process.
const REPLAY_KEY = 'svc-a11y replay key v1';

/**
 * Verifies a webhook delivery: required headers, timestamp tolerance, the `v1=` HMAC-SHA256
 * signature over `timestamp + "." + rawBody` (hex or base64), optional replay protection,
 * then parses the JSON payload. Every failure is a {@link WebhookVerificationError}.
 *
 * @example
 * ```ts
 * // Express: the route must receive the raw body.
 * app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   const event = await verifyWebhook({ body: req.body, headers: req.headers, secret: process.env.SVC_WEBHOOK_SECRET! });
 *   if (event.type === 'scan_run.completed') handle(event.payload);
 *   res.sendStatus(204);
 * });
 *
 * // Fetch-style handlers (edge runtimes, Next.js, Hono, …)
 * const event = await verifyWebhook({ body: await request.text(), headers: request.headers, secret });
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  return verifyWebhookWith(options);
}

/**
 * {@link verifyWebhook} with control over the HMAC implementation (tests force Web Crypto).
 * Checks run cheapest and most explicit first; the payload is parsed only after the signature matched.
 * @internal Not exported from the package entry.
 */
export async function verifyWebhookWith(options: VerifyWebhookOptions, hmac?: HmacOptions): Promise<WebhookEvent> {
  // One async frame with one try/catch: extra promise layers cost measurable throughput.
  try {
    const secret: unknown = options?.secret;
    const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
    // An empty key would let anyone forge signatures, so one empty entry rejects the whole config.
    if (!secrets.length || !secrets.every((s) => typeof s === 'string' && s)) {
      fail('NO_SECRET', 'secret must be a non-empty string or list of them.');
    }

    const body: unknown = options.body;
    const raw: string | Uint8Array =
      typeof body === 'string'
        ? body
        : ArrayBuffer.isView(body)
          ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
          : // The tag check also accepts an ArrayBuffer from another realm (iframe, vm context).
            {}.toString.call(body) === '[object ArrayBuffer]'
            ? new Uint8Array(body as ArrayBuffer)
            : fail(
                'INVALID_BODY',
                `body must be the raw request body (string, Uint8Array or ArrayBuffer), got ${body === null ? null : typeof body}: ` +
                  'parsed JSON no longer matches the signed bytes. Read it raw, e.g. express.raw() or await request.text().',
              );

    const [type, id, timestampText, signatures] = LOWER_NAMES.map(
      // Repeated signature headers are merged: each may carry its own v1= value.
      (name, i) =>
        readHeader(options.headers, name, i > 2 ? 'join' : 'first') ??
        fail('MISSING_HEADER', `Missing header ${HEADER_NAMES[i]}.`),
    ) as [string, string, string, string];

    // Plain integer seconds; 15 digits keeps the value exactly representable as a number.
    if (!/^\d{1,15}$/.test(timestampText))
      fail('INVALID_TIMESTAMP', 'X-Svc-Timestamp must be a non-negative integer of seconds.');
    const timestamp = +timestampText;
    const tolerance = options.toleranceSeconds ?? 300;
    const now = (options.now ?? Date.now)();
    // Invalid values must not silently disable the check.
    if (!(Number.isFinite(tolerance) && tolerance >= 0 && Number.isFinite(now))) {
      fail('INVALID_TIMESTAMP', 'toleranceSeconds must be a finite number >= 0 and now() must return finite epoch ms.');
    }
    // Both directions: a far-future timestamp would otherwise extend a captured delivery's lifetime.
    if (Math.abs(now - timestamp * 1000) > tolerance * 1000) {
      fail(
        'TIMESTAMP_OUT_OF_TOLERANCE',
        `X-Svc-Timestamp ${timestamp} is more than ${tolerance}s from now (${Math.floor(now / 1000)}).`,
      );
    }

    // Other schemes (e.g. v0=) are ignored so new schemes can be added alongside v1; the common single
    // `v1=` value skips the split. Base64url candidates are mapped to the standard alphabet, the one the
    // MAC is compared in.
    const candidates = (
      V1_DIGEST.test(signatures) ? [signatures] : signatures.split(/[\s,]+/).filter((token) => V1_DIGEST.test(token))
    ).map((token) => (token.length > 60 ? token.slice(3) : token.slice(3).replace(/-/g, '+').replace(/_/g, '/')));
    if (!candidates.length)
      fail('MALFORMED_SIGNATURE', 'X-Svc-Signature has no v1= value of 64 hex chars or base64 of 32 bytes.');

    // The MAC covers the exact raw bytes: the prefix and the body are fed separately, never re-encoded.
    const signed = [`${timestampText}.`, raw];
    let verified = 0;
    for (const key of secrets as string[]) {
      let mac = hmacSha256(key, signed, hmac);
      // Synchronous on Node: skipping a promise hop per secret is measurable at webhook rates.
      if (!(mac instanceof Uint8Array)) mac = await mac;
      let matched = 0;
      // Constant time: every char of every candidate is compared (no early exit), so timing reveals neither
      // how much of a candidate matched nor which one did; only the public formats and lengths branch.
      for (const candidate of candidates) {
        // Base64 candidates (rare; 43 chars or 44 with the pad) are compared with the MAC's padded base64,
        // hex ones nibble by nibble with the MAC bytes, which builds no string on the hot path.
        const base64 = candidate.length < 64 && toBase64(mac);
        let diff = 0;
        for (let i = 0; i < candidate.length; i++) {
          const nibble = (mac[i >> 1]! >> (i & 1 ? 0 : 4)) & 15;
          // `| 32` lowercases A-F and leaves digits alone (the pattern admitted nothing else).
          diff |= base64
            ? candidate.charCodeAt(i) ^ base64.charCodeAt(i)
            : (candidate.charCodeAt(i) | 32) ^ (nibble + (nibble > 9 ? 87 : 48));
        }
        matched |= +!diff;
      }
      verified = matched;
      if (verified) break;
    }
    if (!verified) fail('SIGNATURE_MISMATCH', 'No X-Svc-Signature v1= value matches the secret(s).');

    let payload: unknown;
    try {
      payload = JSON.parse(typeof raw === 'string' ? raw : utf8.decode(raw));
    } catch (error) {
      // TextDecoder throws a TypeError, JSON.parse a SyntaxError.
      fail('INVALID_PAYLOAD', `body is not valid ${error instanceof SyntaxError ? 'JSON' : 'UTF-8'}.`, error);
    }

    const store = options.replayStore;
    if (store) {
      // Keyed on the signed material only (timestamp + raw body): X-Svc-Delivery is not signed, so keyed on it a
      // captured delivery resent under fresh ids would pass, or (as a second key) flush a bounded store. Not the
      // MAC: with rotation a delivery may carry one v1= value per secret, and any one verifies. A fixed public
      // key makes the HMAC a plain hash of that material (no second hash routine in the bundle).
      let digest = hmacSha256(REPLAY_KEY, signed, hmac);
      if (!(digest instanceof Uint8Array)) digest = await digest;
      let seen: unknown;
      try {
        // +1: the timestamp check accepts a delivery exactly at the edge, so the entry must outlive that instant.
        seen = await store.checkAndRemember(`signed:${toHex(digest)}`, (timestamp + tolerance) * 1000 + 1);
      } catch (error) {
        seen = error;
      }
      if (seen === true) {
        fail(
          'REPLAYED',
          'The same signed delivery (timestamp and body) was already processed, under this or another X-Svc-Delivery id.',
        );
      }
      if (seen !== false) {
        // A store's own refusal keeps its reason and message, whichever copy of this package threw it (the ESM and
        // CommonJS entries each hold their own class, so no instanceof). Any other failure, or a non-boolean, is
        // UNAVAILABLE: fail closed, yet never REPLAYED, which receivers acknowledge (the sender would not retry).
        const reason = (seen as WebhookVerificationError)?.reason;
        if (/^REPLAY_STORE_(FULL|UNAVAILABLE|EVICTION)$/.test(reason)) fail(reason, (seen as Error).message, seen);
        fail('REPLAY_STORE_UNAVAILABLE', 'replayStore failed (see cause).', seen);
      }
    }
    return { id, type, timestamp, payload };
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw error;
    // Callers only ever see one error type, and an unexpected failure (a broken clock or headers object, a
    // runtime without HMAC) must never let a delivery pass.
    return fail(
      'SIGNATURE_MISMATCH',
      'Unexpected error (see cause), e.g. neither node:crypto nor Web Crypto is available.',
      error,
    );
  }
}
