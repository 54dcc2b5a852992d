// Keeping the API key out of everything a caller can see: redaction of texts, parsed bodies and headers, and
// the inspection hook that keeps it out of `util.inspect` (Node) without importing `node:util`.
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Shortest start of a secret that counts as the secret: a field clipped after 8 characters still hides it. */
export const MIN_SECRET_PREFIX = 8;

// Each spelling a character of the secret takes once some encoder has been over it: as is (any case: a host name
// or a header may be lowercased), after a backslash (Markdown escapes `_`; JSON escapes `/`), percent-encoded (once
// or twice), as an XML/HTML character reference (decimal or hex, leading zeros; `&lowbar;` for `_`), or as a JSON/JS
// `\u00XX`.
function spellings(c: string): string {
  const code = c.charCodeAt(0);
  const hex = code.toString(16);
  const literal = c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const named = c === '_' ? '|&lowbar;|&UnderBar;' : '';
  return `(?:\\\\{0,4}${literal}|%(?:25)?${hex.padStart(2, '0')}|&#0*${code};?|&#x0*${hex};?|\\\\u0*${hex}${named})`;
}

// One compiled pattern per secret: a client or a CLI run has one or two.
const patterns = new Map<string, RegExp>();

/**
 * A pattern matching `secret` in every spelling above, and its start cut short at any length from
 * {@link MIN_SECRET_PREFIX} characters on (a clipped field keeps most of a key). Secrets of fewer than 4
 * characters are not looked for (they would match ordinary words).
 */
export function secretPattern(secret: string): RegExp | undefined {
  if (secret.length < 4) return undefined;
  let pattern = patterns.get(secret);
  if (!pattern) {
    const chars = [...secret.slice(0, 256)].map(spellings);
    const head = Math.min(MIN_SECRET_PREFIX, chars.length);
    // a b c … h (?: i (?: j (?: …)?)?)? — a whole prefix of at least `head` characters, as long as it goes.
    const tail = chars.slice(head).reduceRight((rest, c) => `(?:${c}${rest})?`, '');
    pattern = new RegExp(chars.slice(0, head).join('') + tail, 'gi');
    if (patterns.size > 16) patterns.clear();
    patterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * Replaces every occurrence of `secret` in `text` with `[redacted]`, in any spelling an encoder gives it (any case,
 * percent-encoded, escaped for Markdown, JSON, XML or HTML) and cut short after 8 characters or more: the redaction
 * the SDK applies to its own errors, for your logs. Secrets under 4 characters are left alone.
 * Exported from the package as `redactSecret`.
 * @example redactSecret(`GET /x?key=${encodeURIComponent(apiKey)}`, apiKey) // 'GET /x?key=[redacted]'
 */
export function redact(text: string, secret: string | undefined): string {
  const pattern = secret ? secretPattern(secret) : undefined;
  return pattern ? text.replace(pattern, '[redacted]') : text;
}

/**
 * `value` with `secret` redacted from every string in it (keys included); parsed JSON only.
 */
export function scrub(value: unknown, secret: string | undefined): unknown {
  return secret ? mapStrings(value, (text) => redact(text, secret)) : value;
}

/**
 * A copy of parsed JSON with `map` applied to every string in it, keys included. Iterative, with an explicit
 * stack: a body nested thousands of levels deep must not exhaust the call stack.
 */
export function mapStrings(value: unknown, map: (text: string) => string): unknown {
  const pending: Array<[source: object, target: Record<string, unknown> | unknown[]]> = [];
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return map(item);
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
        Object.defineProperty(target, map(key), {
          value: copy(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
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
  if (!error || typeof error !== 'object' || depth > 8)
    return typeof error === 'object' && error ? '[error chain truncated]' : error;
  const source = error as Record<string, unknown> & { errors?: unknown };
  const copy = (error instanceof Error ? new Error(redact(error.message, secret)) : {}) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = source[key];
    if (typeof item === 'string') copy[key] = redact(item, secret);
    else if (typeof item === 'number' || typeof item === 'boolean' || item == null) copy[key] = item;
  }
  if (error instanceof Error) {
    Object.defineProperty(copy, 'name', { value: redact(error.name, secret), configurable: true, writable: true });
    Object.defineProperty(copy, 'stack', {
      value: error.stack === undefined ? undefined : redact(error.stack, secret),
      configurable: true,
      writable: true,
    });
  }
  if ('cause' in source)
    Object.defineProperty(copy, 'cause', {
      value: scrubError(source.cause, secret, depth + 1),
      configurable: true,
      writable: true,
    });
  if (Array.isArray(source.errors))
    copy.errors = source.errors.slice(0, 16).map((item) => scrubError(item, secret, depth + 1));
  return copy;
}

/** The headers, copied with `secret` redacted when any value carries it. */
export function scrubHeaders(headers: Headers, secret: string | undefined): Headers {
  let leaks = false;
  headers.forEach((value) => {
    leaks ||= redact(value, secret) !== value;
  });
  if (!leaks) return headers;
  const clean = new Headers();
  for (const [name, value] of headers) clean.append(name, redact(value, secret));
  return clean;
}
