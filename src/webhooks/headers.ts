/** Header carrying the event kind, e.g. `scan_run.completed`. */
export const EVENT_HEADER = 'X-Svc-Event';
/** Header carrying the stable delivery id. */
export const DELIVERY_HEADER = 'X-Svc-Delivery';
/** Header carrying the delivery timestamp (seconds). */
export const TIMESTAMP_HEADER = 'X-Svc-Timestamp';
/** Header carrying `v1=<hmac-sha256>` signature(s). */
export const SIGNATURE_HEADER = 'X-Svc-Signature';

/**
 * Request headers as accepted by `verifyWebhook`: a Fetch `Headers` object or a plain
 * object such as Node's `IncomingHttpHeaders` (any key case; array values allowed).
 */
export type WebhookHeadersInput = Headers | Record<string, string | string[] | undefined>;

/** How to collapse repeated header values. `first`: first non-empty value; `join`: all values joined by `, `. */
export type RepeatedHeaderMode = 'first' | 'join';

/**
 * Reads one header case-insensitively. Returns `undefined` when absent or blank.
 *
 * @param headers - `Headers`, a plain header object, or anything else (treated as having no headers).
 * @param name - Header name in any case.
 * @param mode - How to collapse array values from plain objects. @default 'first'
 */
export function readHeader(headers: unknown, name: string, mode: RepeatedHeaderMode = 'first'): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const lower = lowerCaseName(name);
  const get = (headers as { get?: unknown }).get;
  if (typeof get === 'function') {
    // Fetch Headers are already case-insensitive and join repeats with ", ".
    return normalize(get.call(headers, lower), mode);
  }
  const record = headers as Record<string, unknown>;
  // Node lowercases incoming header names, so the direct lookup is the common hit.
  let value = record[lower] ?? record[name];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === lower) {
        value = record[key];
        break;
      }
    }
  }
  return normalize(value, mode);
}

// Header names are a handful of constants; memoising their lowercase form avoids an allocation per lookup.
const lowerNames = new Map<string, string>();
function lowerCaseName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < 64) lowerNames.set(name, lower);
  }
  return lower;
}

function normalize(value: unknown, mode: RepeatedHeaderMode): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!Array.isArray(value)) return undefined;
  const parts: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const trimmed = item.trim();
    if (!trimmed) continue;
    if (mode === 'first') return trimmed;
    parts.push(trimmed);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
