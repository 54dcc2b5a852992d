/**
 * Request headers as accepted by `verifyWebhook`: a Fetch `Headers` object or a plain
 * object such as Node's `IncomingHttpHeaders` (any key case; array values allowed).
 */
export type WebhookHeadersInput = Headers | Record<string, string | string[] | undefined>;

/**
 * The delivery headers in canonical case and in this order: event kind, stable delivery id,
 * timestamp (seconds), `v1=<hmac-sha256>` signature(s).
 * @internal
 */
export const HEADER_NAMES = ['X-Svc-Event', 'X-Svc-Delivery', 'X-Svc-Timestamp', 'X-Svc-Signature'] as const;

/**
 * Reads one header case-insensitively; `undefined` when absent or blank. Array values (plain objects)
 * collapse to the first non-blank item, or with `join` to all of them joined by `, ` as Fetch does.
 *
 * @internal
 * @param headers - `Headers`, a plain header object, or anything else (treated as having no headers).
 * @param name - Header name in any case; lowercase is fastest.
 * @param mode - How to collapse array values. @default 'first'
 */
export function readHeader(headers: unknown, name: string, mode?: 'first' | 'join'): string | undefined {
  if (!headers || typeof headers !== 'object') return;
  const record = headers as Record<string, unknown>;
  // Fetch Headers are case-insensitive and join repeats with ", " themselves. Node lowercases incoming
  // header names, so with a lowercase name the direct lookup is the common hit; other keys are scanned.
  const value =
    typeof record.get === 'function'
      ? (record.get(name) as unknown)
      : (record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1]);
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) {
    const items = value.flatMap((item: unknown) => (typeof item === 'string' && item.trim()) || []);
    return mode === 'join' ? items.join(', ') || undefined : items[0];
  }
}
