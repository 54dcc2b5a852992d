/**
 * Why a webhook delivery was rejected.
 *
 * - `MISSING_HEADER` — one of `X-Svc-Event`, `X-Svc-Delivery`, `X-Svc-Timestamp`, `X-Svc-Signature` is absent or empty.
 * - `INVALID_TIMESTAMP` — `X-Svc-Timestamp` is not a plain non-negative integer of seconds
 *   (also used for an invalid `toleranceSeconds`/clock, or a bad `timestamp` passed to `signWebhook`).
 * - `TIMESTAMP_OUT_OF_TOLERANCE` — the timestamp is further than the tolerance from now, in either direction.
 * - `MALFORMED_SIGNATURE` — `X-Svc-Signature` has no well-formed `v1=` value (64 hex chars or base64 of 32 bytes).
 * - `SIGNATURE_MISMATCH` — no `v1=` value matches any secret (also used when the MAC could not be computed).
 * - `INVALID_BODY` — the body is not raw bytes/text (e.g. an already-parsed object).
 * - `INVALID_PAYLOAD` — the signature is valid but the body is not UTF-8 JSON.
 * - `NO_SECRET` — the secret is missing, empty, or an empty list.
 * - `REPLAYED` — the same signed delivery (timestamp and body) was already seen by the replay store, whatever its
 *   unsigned `X-Svc-Delivery` id. Safe to acknowledge: the first copy was accepted.
 * - `REPLAY_STORE_FULL` — the replay store holds its maximum of entries and every one is still inside the
 *   tolerance window: the delivery is refused rather than forget an entry (which would let that delivery be
 *   replayed). Raise `MemoryReplayStore`'s `maxEntries`, or share a larger store.
 * - `REPLAY_STORE_UNAVAILABLE` — the replay store failed, could not be reached in time (e.g. `RedisReplayStore`
 *   from `@svc/a11y-sdk/redis` while Redis is down) or answered a non-boolean (see `cause`): whether the delivery
 *   is new is unknown, so it is refused. Neither a bad signature nor a replay: answer 503 so the sender delivers
 *   it again later.
 * - `REPLAY_STORE_EVICTION` — the replay store may forget entries before they expire (`RedisReplayStore` on a Redis
 *   whose `maxmemory-policy` is not `noeviction`, with `whenUnavailable` `'fail-closed'`), which would let a
 *   delivery be replayed, so none is accepted. Answer 503, and set `maxmemory-policy noeviction`.
 */
export type WebhookVerificationReason =
  | 'MISSING_HEADER'
  | 'INVALID_TIMESTAMP'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'MALFORMED_SIGNATURE'
  | 'SIGNATURE_MISMATCH'
  | 'INVALID_BODY'
  | 'INVALID_PAYLOAD'
  | 'NO_SECRET'
  | 'REPLAYED'
  | 'REPLAY_STORE_FULL'
  | 'REPLAY_STORE_UNAVAILABLE'
  | 'REPLAY_STORE_EVICTION';

/**
 * The only error type thrown by `verifyWebhook`. Messages never contain the signing secret.
 *
 * @example
 * ```ts
 * try {
 *   await verifyWebhook({ body, headers, secret });
 * } catch (err) {
 *   if (err instanceof WebhookVerificationError && err.reason === 'REPLAYED') return ack();
 *   throw err;
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  /** Always `'WebhookVerificationError'`. */
  override readonly name = 'WebhookVerificationError';
  /** Machine-readable rejection reason. */
  readonly reason: WebhookVerificationReason;

  /**
   * Creates the error of one rejected delivery.
   * @param reason - Machine-readable rejection reason.
   * @param message - Human-readable explanation; must never include the secret.
   * @param options - Standard `ErrorOptions`; `cause` is kept non-enumerable so it stays out of `JSON.stringify`.
   */
  constructor(reason: WebhookVerificationReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * Throws the {@link WebhookVerificationError} of one rejection; `cause` is attached only when given.
 * @internal
 */
export function fail(reason: WebhookVerificationReason, message: string, cause?: unknown): never {
  throw new WebhookVerificationError(reason, message, cause === undefined ? undefined : { cause });
}
