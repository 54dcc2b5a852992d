// Parsing of the `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.

/**
 * Longest wait `parseRetryAfter` gives: the span of a JavaScript Date (8.64·10¹⁵ ms, about 273 790 years).
 * A longer delay (RFC 9110 bounds none) is a wait no date can name; it is read as this, never as malformed
 * (which would mean a re-send after a short backoff).
 */
export const MAX_RETRY_AFTER_MS = 8.64e15;

/**
 * Milliseconds to wait from a `Retry-After` value, or undefined when the value is missing or malformed
 * (the caller then falls back to backoff with jitter; a malformed value never means "retry at once").
 * The document gives integer seconds (int32, minimum 0); any run of digits is accepted, a huge one capped at
 * 8.64·10¹⁵ ms (the span of a Date); the HTTP-date form is accepted too.
 * @param value - the header's value
 * @param now - clock in ms since the epoch
 * @default now Date.now()
 * @example parseRetryAfter('30') // 30000
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  // delay-seconds = 1*DIGIT: a thousand digits still mean "wait", even though no timer can hold it.
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // An HTTP-date names a weekday and a GMT time; plain numbers with signs or fractions are malformed.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  // A non-finite clock (NaN, ±Infinity) would turn a valid date into NaN or Infinity: malformed, not a wait.
  const wait = Date.parse(text) - now;
  return Number.isFinite(wait) ? Math.max(0, wait) : undefined;
}
