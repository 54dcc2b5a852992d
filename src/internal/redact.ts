// Keeping the API key out of everything a caller can see: redaction of texts, parsed bodies and headers, and
// the inspection hook that keeps it out of `util.inspect` (Node) without importing `node:util`.
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Shortest start of a secret that counts as the secret: a field clipped after 8 characters still hides it. */
export const MIN_SECRET_PREFIX = 8;

// Each spelling a character of the secret takes once some encoder has been over it: as is (any case: a host name
// or a header may be lowercased), after a backslash (Markdown escapes `_`; JSON escapes `/`), percent-encoded (once
// or twice), as an XML/HTML character reference (decimal or hex, leading zeros; `&lowbar;` for `_`), or as a JSON/JS
// `\u00XX`.
// The first character takes any run of backslashes before it, and a match never starts inside such a run: in
// serialised text a run left half-taken would leave a `\` to escape whatever follows `[redacted]`.
function spellings(c: string, first: boolean): string {
  const code = c.charCodeAt(0);
  const hex = code.toString(16);
  const literal = c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const named = c === '_' ? '|&lowbar;|&UnderBar;' : '';
  const escapes = first ? '\\\\*' : '\\\\{0,4}';
  return `(?:${escapes}${literal}|%(?:25)?${hex.padStart(2, '0')}|&#0*${code};?|&#x0*${hex};?|\\\\u0*${hex}${named})`;
}

// One compiled pattern per secret: a client or a CLI run has one or two.
const patterns = new Map<string, RegExp>();

// `chars` (one spelling pattern each) as a whole prefix of at least `head` of them, as long as it goes:
// a b c … h (?: i (?: j (?: …)?)?)?
function clipped(chars: readonly string[], head: number): string {
  return chars.slice(0, head).join('') + chars.slice(head).reduceRight((rest, c) => `(?:${c}${rest})?`, '');
}

// Every spelling of `form`, cut short at `head` characters or more; a match never starts inside a run of backslashes.
function spelled(form: string, head: number): RegExp {
  const chars = [...form.slice(0, 256)].map((c, i) => spellings(c, i === 0));
  return new RegExp(`(?<!\\\\)${clipped(chars, head)}`, 'gi');
}

/**
 * A pattern matching `secret` in every spelling above, and its start cut short at any length from
 * {@link MIN_SECRET_PREFIX} characters on (a clipped field keeps most of a key). Secrets of fewer than 4
 * characters are not looked for (they would match ordinary words).
 */
function secretPattern(secret: string): RegExp | undefined {
  if (secret.length < 4) return undefined;
  let pattern = patterns.get(secret);
  if (!pattern) {
    pattern = spelled(secret, MIN_SECRET_PREFIX);
    if (patterns.size > 16) patterns.clear();
    patterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * Replaces every occurrence of `secret` in `text` with `[redacted]`, in any spelling an encoder gives it (any case,
 * percent-encoded, escaped for Markdown, JSON, XML or HTML) and cut short after 8 characters or more: the redaction
 * the SDK applies to its own errors, for your logs. Secrets under 4 characters are left alone. A match never starts
 * inside a run of backslashes, so serialised text keeps its escapes whole. Exported from the package as
 * `redactSecret`.
 * @example redactSecret(`GET /x?key=${encodeURIComponent(apiKey)}`, apiKey) // 'GET /x?key=[redacted]'
 */
export function redact(text: string, secret: string | undefined): string {
  const pattern = secret ? secretPattern(secret) : undefined;
  return pattern ? text.replace(pattern, '[redacted]') : text;
}

// The forms a service may echo a key in beside its spellings (see redactEchoedSecret). Not part of `redact`: the root
// bundle carries only the spellings, for the SDK's errors; the CLI's outputs and `@svc/a11y-sdk/redact` take these.

/** The shortest start of the key without its prefix words that counts as the key (it is random from its start). */
const MIN_UNPREFIXED = 16;
/** Base64 characters that stand for 8 bytes: a base64 form cut shorter says too little to be the secret's. */
const MIN_BASE64_PREFIX = 11;

/**
 * The secret without its leading prefix words (`svc_`, `svc_live_`, `ghp_`, `glpat-`), as a service may echo the part
 * it parsed: each remainder of 12 characters or more.
 */
function unprefixed(secret: string): string[] {
  const rests: string[] = [];
  let rest = secret;
  for (let i = 0; i < 2; i++) {
    const word = /^[A-Za-z]{2,12}[_-]/.exec(rest);
    if (!word) break;
    rest = rest.slice(word[0].length);
    if (rest.length >= 12) rests.push(rest);
  }
  return rests;
}

/**
 * The secret's UTF-8 bytes in base64 and base64url, at each of the three byte offsets it can have inside a longer
 * encoded value (a `Basic` credential, a JSON web token, a blob): the characters that only its bytes decide.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret.slice(0, 256));
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    let binary = '\0'.repeat(offset);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const core = btoa(binary).slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((form) => form.length >= MIN_BASE64_PREFIX);
}

// The key without its prefix words (any spelling and case, 16 characters or more of it), and in base64 (case
// matters there): several patterns, since a pattern is case-insensitive as a whole.
const echoPatternCache = new Map<string, RegExp[]>();
function echoPatterns(secret: string): RegExp[] {
  let found = echoPatternCache.get(secret);
  if (!found) {
    const encoded = base64Forms(secret).map((form) =>
      clipped(
        [...form].map((c) => c.replace(/[+/]/g, '\\$&')),
        MIN_BASE64_PREFIX,
      ),
    );
    found = unprefixed(secret).map((rest) => spelled(rest, MIN_UNPREFIXED));
    if (encoded.length) found.push(new RegExp(encoded.join('|'), 'g'));
    if (echoPatternCache.size > 16) echoPatternCache.clear();
    echoPatternCache.set(secret, found);
  }
  return found;
}

/**
 * `redactSecret`, and `secret` also in the forms a service may echo it in: without its leading prefix words (`svc_`,
 * `svc_live_`: 16 characters or more of the rest), and its UTF-8 bytes in base64 or base64url at any of the three byte
 * offsets it can have inside a longer value (a `Basic` credential, a token), 11 characters or more. The redaction the
 * CLI applies to everything it writes. Exported from `@svc/a11y-sdk/redact` as `redactEchoedSecret`.
 * @example redactEchoedSecret(`Basic ${btoa(`user:${apiKey}`)}`, apiKey) // 'Basic dXNlcj[redacted]…'
 */
export function redactEchoes(text: string, secret: string | undefined): string {
  let result = redact(text, secret);
  if (!secret || secret.length < 4) return result;
  for (const pattern of echoPatterns(secret)) result = result.replace(pattern, '[redacted]');
  return result;
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
function mapStrings(value: unknown, map: (text: string) => string): unknown {
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
