// Keeping the API key out of everything a caller can see: redaction of texts, parsed bodies and headers, and
// the inspection hook that keeps it out of `util.inspect` (Node) without importing `node:util`.
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Replaces every occurrence of `secret` in `text` with a marker (used on any text that could echo it). */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

/** `value` with `secret` redacted from every string in it (keys included); parsed JSON only. */
export function scrub(value: unknown, secret: string | undefined): unknown {
  if (!secret) return value;
  if (typeof value === 'string') return redact(value, secret);
  if (Array.isArray(value)) return value.map((item) => scrub(item, secret));
  if (value && typeof value === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays data, as JSON.parse made it.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secret), scrub(v, secret)]));
  }
  return value;
}

/** The headers, copied with `secret` redacted when any value carries it. */
export function scrubHeaders(headers: Headers, secret: string | undefined): Headers {
  if (!secret || secret.length < 4) return headers;
  let leaks = false;
  headers.forEach((value) => {
    if (value.includes(secret)) leaks = true;
  });
  if (!leaks) return headers;
  const clean = new Headers();
  for (const [name, value] of headers) clean.append(name, redact(value, secret));
  return clean;
}
