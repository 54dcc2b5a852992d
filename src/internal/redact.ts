// Keeping the API key out of everything a caller can see: redaction of texts, parsed bodies and headers, and
// the inspection hook that keeps it out of `util.inspect` (Node) without importing `node:util`.
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Replaces every occurrence of `secret` in `text` with a marker (used on any text that could echo it). */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

/**
 * `value` with `secret` redacted from every string in it (keys included); parsed JSON only. Iterative, with
 * an explicit stack: a problem body nested thousands of levels deep must not exhaust the call stack.
 */
export function scrub(value: unknown, secret: string | undefined): unknown {
  if (!secret) return value;
  const pending: Array<[source: object, target: Record<string, unknown> | unknown[]]> = [];
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return redact(item, secret);
    if (!item || typeof item !== 'object') return item;
    const target = Array.isArray(item) ? [] : {};
    pending.push([item, target]);
    return target;
  };
  const root = copy(value);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [source, target] = next;
    if (Array.isArray(target)) {
      for (const item of source as unknown[]) target.push(copy(item));
    } else {
      // Defined as own data properties, so a "__proto__" key stays data, as JSON.parse made it.
      for (const [key, item] of Object.entries(source)) {
        Object.defineProperty(target, redact(key, secret), { value: copy(item), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return root;
}

/**
 * A copy of an error chain safe to attach as a `cause`: name, message, stack and primitive properties
 * (such as `code`) with `secret` redacted, nested `cause` and `AggregateError#errors` copied the same way
 * (to a bounded depth), other properties left out — a custom `fetch` may hang the request's headers,
 * and so the key, on its error anywhere.
 */
export function scrubError(error: unknown, secret: string | undefined, depth = 0): unknown {
  if (typeof error === 'string') return redact(error, secret);
  if (!error || typeof error !== 'object' || depth > 8) return typeof error === 'object' && error ? '[error chain truncated]' : error;
  const source = error as Record<string, unknown> & { errors?: unknown };
  const copy = (error instanceof Error ? new Error(redact(error.message, secret)) : {}) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = source[key];
    if (typeof item === 'string') copy[key] = redact(item, secret);
    else if (typeof item === 'number' || typeof item === 'boolean' || item == null) copy[key] = item;
  }
  if (error instanceof Error) {
    Object.defineProperty(copy, 'name', { value: redact(error.name, secret), configurable: true, writable: true });
    Object.defineProperty(copy, 'stack', { value: error.stack === undefined ? undefined : redact(error.stack, secret), configurable: true, writable: true });
  }
  if ('cause' in source) Object.defineProperty(copy, 'cause', { value: scrubError(source.cause, secret, depth + 1), configurable: true, writable: true });
  if (Array.isArray(source.errors)) copy.errors = source.errors.slice(0, 16).map((item) => scrubError(item, secret, depth + 1));
  return copy;
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
