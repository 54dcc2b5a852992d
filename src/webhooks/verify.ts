import { decodeDigest, hmacSha256, hmacSha256Sync, timingSafeEqual, toHex, type HmacOptions } from './crypto.js';
import { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  readHeader,
  type RepeatedHeaderMode,
  type WebhookHeadersInput,
} from './headers.js';
import type { ReplayStore } from './replay-store.js';

/** Default maximum age (and future skew) of a delivery timestamp, in seconds. */
const DEFAULT_TOLERANCE_SECONDS = 300;

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
  toleranceSeconds?: number;
  /**
   * Millisecond clock.
   * @default Date.now
   */
  now?: () => number;
  /** When given, a delivery id seen before (within its expiry) is rejected with `REPLAYED`. */
  replayStore?: ReplayStore;
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
// Plain integer seconds; 15 digits keeps the value exactly representable as a number.
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;
const SIGNATURE_SEPARATOR = /[\s,]+/;

function fail(reason: WebhookVerificationReason, message: string, cause?: unknown): never {
  throw new WebhookVerificationError(reason, message, cause === undefined ? undefined : { cause });
}

function normalizeSecrets(secret: unknown): readonly string[] {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  // An empty key would let anyone forge signatures, so one empty entry rejects the whole config.
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.length > 0)) {
    fail('NO_SECRET', 'No webhook signing secret configured: provide a non-empty string or a non-empty list of them.');
  }
  return list as readonly string[];
}

function toRawBody(body: unknown): string | Uint8Array {
  if (typeof body === 'string') return body;
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer || Object.prototype.toString.call(body) === '[object ArrayBuffer]') {
    return new Uint8Array(body as ArrayBuffer);
  }
  const received = body === null ? 'null' : typeof body === 'object' ? 'a parsed object' : typeof body;
  return fail(
    'INVALID_BODY',
    `Webhook body must be the raw request body (string, Uint8Array, Buffer or ArrayBuffer) but received ${received}. ` +
      'Re-serialising parsed JSON changes the bytes and breaks the signature: read the raw body instead, ' +
      "e.g. express.raw({ type: 'application/json' }) or `await request.text()`.",
  );
}

function requireHeader(headers: unknown, name: string, mode?: RepeatedHeaderMode): string {
  return readHeader(headers, name, mode) ?? fail('MISSING_HEADER', `Missing required webhook header ${name}.`);
}

function parseSignatures(header: string): Uint8Array[] {
  // Fast path for the common single `v1=<64 hex>` header: no split, no intermediate array.
  if (header.length === 67 && header.startsWith('v1=')) {
    const digest = decodeDigest(header.slice(3));
    if (digest) return [digest];
  }
  const candidates: Uint8Array[] = [];
  let sawV1 = false;
  for (const token of header.split(SIGNATURE_SEPARATOR)) {
    // Other schemes (e.g. v0=) are ignored so new schemes can be added alongside v1.
    if (!token.startsWith('v1=')) continue;
    sawV1 = true;
    const digest = decodeDigest(token.slice(3));
    if (digest) candidates.push(digest);
  }
  if (candidates.length === 0) {
    fail(
      'MALFORMED_SIGNATURE',
      sawV1
        ? `${SIGNATURE_HEADER} has no v1= value that is 64 hex characters or base64 of 32 bytes.`
        : `${SIGNATURE_HEADER} has no v1= signature.`,
    );
  }
  return candidates;
}

function parsePayload(raw: string | Uint8Array): unknown {
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : utf8.decode(raw);
  } catch (error) {
    return fail('INVALID_PAYLOAD', 'Webhook body is not valid UTF-8.', error);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return fail('INVALID_PAYLOAD', 'Webhook body is not valid JSON.', error);
  }
}

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
 * @internal Not exported from the package entry.
 */
export async function verifyWebhookWith(options: VerifyWebhookOptions, hmac?: HmacOptions): Promise<WebhookEvent> {
  // One async frame with an inner try/catch: extra promise layers cost measurable throughput.
  try {
    const delivery = parseDelivery(options);
    const { secrets, raw, timestampText } = delivery;
    // The MAC covers the exact raw bytes: the prefix and the body are fed separately, never re-encoded.
    const signedParts = [`${timestampText}.`, raw] as const;
    let matched = false;
    let matchedMac: Uint8Array | undefined;
    for (const secret of secrets) {
      let mac: Uint8Array;
      try {
        // Synchronous on Node: skipping a promise hop per secret is measurable at webhook rates.
        mac = hmacSha256Sync(secret, signedParts, hmac) ?? (await hmacSha256(secret, signedParts, hmac));
      } catch (error) {
        return fail('SIGNATURE_MISMATCH', 'The webhook signature could not be computed in this runtime.', error);
      }
      // Evaluate every candidate (no short-circuit) so timing does not reveal which one matched.
      for (const candidate of delivery.candidates) matched = timingSafeEqual(mac, candidate) || matched;
      if (matched) {
        matchedMac = mac;
        break;
      }
    }
    if (!matched) fail('SIGNATURE_MISMATCH', `No ${SIGNATURE_HEADER} v1= value matches the configured secret(s).`);

    const payload = parsePayload(raw);
    if (options.replayStore) await checkReplay(options.replayStore, delivery, matchedMac!);
    return { id: delivery.id, type: delivery.type, timestamp: delivery.timestamp, payload };
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw error;
    // Callers must only ever see one error type, and an unexpected failure must never pass.
    return fail('SIGNATURE_MISMATCH', 'Webhook could not be verified because of an unexpected error.', error);
  }
}

interface ParsedDelivery {
  secrets: readonly string[];
  raw: string | Uint8Array;
  type: string;
  id: string;
  timestampText: string;
  timestamp: number;
  toleranceSeconds: number;
  candidates: Uint8Array[];
}

/** Everything that can be checked before computing a MAC, cheapest and most explicit errors first. */
function parseDelivery(options: VerifyWebhookOptions): ParsedDelivery {
  const secrets = normalizeSecrets(options?.secret);
  const raw = toRawBody(options?.body);

  const headers: unknown = options.headers;
  const type = requireHeader(headers, EVENT_HEADER);
  const id = requireHeader(headers, DELIVERY_HEADER);
  const timestampText = requireHeader(headers, TIMESTAMP_HEADER);
  // Repeated signature headers are merged: each may carry its own v1= value.
  const signatureHeader = requireHeader(headers, SIGNATURE_HEADER, 'join');

  if (!TIMESTAMP_PATTERN.test(timestampText)) {
    fail('INVALID_TIMESTAMP', `${TIMESTAMP_HEADER} must be a non-negative integer number of seconds.`);
  }
  const timestamp = Number(timestampText);
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    fail('INVALID_TIMESTAMP', 'toleranceSeconds must be a finite, non-negative number.');
  }
  const nowMs = (options.now ?? Date.now)();
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    fail('INVALID_TIMESTAMP', 'The now() clock must return finite epoch milliseconds.');
  }
  // Both directions: a far-future timestamp would otherwise extend a captured delivery's lifetime.
  if (Math.abs(nowMs - timestamp * 1000) > toleranceSeconds * 1000) {
    fail(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      `${TIMESTAMP_HEADER} ${timestampText} is more than ${toleranceSeconds}s from the current time ${Math.floor(nowMs / 1000)}.`,
    );
  }

  const candidates = parseSignatures(signatureHeader);
  return { secrets, raw, type, id, timestampText, timestamp, toleranceSeconds, candidates };
}

/**
 * A delivery is new only when both its id and its signed material are new. The signature covers the
 * timestamp and body but not `X-Svc-Delivery`: keyed on the id alone, a captured delivery could be replayed
 * with another id; keyed on the signature alone, the service's own retries (same id, new timestamp) would
 * pass twice.
 */
async function checkReplay(store: ReplayStore, delivery: ParsedDelivery, mac: Uint8Array): Promise<void> {
  // After timestamp + tolerance the timestamp check rejects the delivery anyway, so the keys can be forgotten.
  const expiresAtMs = (delivery.timestamp + delivery.toleranceSeconds) * 1000;
  let seen: unknown[];
  try {
    seen = [await store.checkAndRemember(`id:${delivery.id}`, expiresAtMs), await store.checkAndRemember(`sig:${delivery.timestampText}.${toHex(mac)}`, expiresAtMs)];
  } catch (error) {
    // Fail closed: if freshness cannot be established the delivery is not accepted.
    return fail('REPLAYED', 'The replay store failed, so the delivery cannot be confirmed as new.', error);
  }
  if (seen.some((s) => s !== false)) {
    fail(
      'REPLAYED',
      seen.every((s) => typeof s === 'boolean')
        ? `Webhook delivery ${delivery.id} (or the same signed delivery under another id) was already processed.`
        : 'The replay store returned a non-boolean result, so the delivery cannot be confirmed as new.',
    );
  }
}
