// Text from the service made safe once, where it enters the CLI: secrets in every spelling, URL credentials,
// token-like query parameters, and characters a terminal or a CI log would act on. Reports, the step summary and
// stderr all print what this made; the output guard in output.ts repeats the secret and credential parts as a second
// line on what is finally written.
// URL credentials and token parameters: the SDK's own implementation (its debug logs use the same one).
import { redactEchoedSecret as redact, redactTokenParameters, redactUrlCredentials } from '../../redact/index.js';

// C0 and C1 controls but line feed and tab (ESC restyles a terminal, CR and BEL rewrite a log line, DEL), and
// invisible format characters (Unicode Cf: zero-width, bidi marks and overrides, soft hyphen, word joiner, BOM),
// which can hide text from a reader or a workflow command from a guard. CR alone or before LF is a line break.
const UNSAFE = /\r\n?|[\u2028\u2029]|[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Cf}]/gu;

/**
 * `text` with C0/C1 controls (but `\n` and `\t`) and invisible format characters shown as U+FFFD, and CR, CR LF,
 * U+2028 and U+2029 as `\n`.
 * @example visibleText('a\u001b[2Jb\u200Bc\r\nd') // 'a\uFFFD[2Jb\uFFFDc\nd'
 */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, (c) =>
    c.length > 1 || c === '\r' || c === '\u2028' || c === '\u2029' ? '\n' : '\uFFFD',
  );
}

/**
 * `text` with the `user:password@` of every URL in it replaced by `[redacted]@`, as serialised text
 * (`redactUrlCredentials` of the SDK; a raw field value goes through {@link safeText} instead).
 * @example withoutUrlCredentials('https://u:p@h/x') // 'https://[redacted]@h/x'
 */
export function withoutUrlCredentials(text: string): string {
  return redactUrlCredentials(text);
}

/**
 * `text` with the values of credential-like query parameters redacted.
 * @example withoutTokenParameters('https://h/?access_token=abc&page=2') // 'https://h/?access_token=[redacted]&page=2'
 */
export function withoutTokenParameters(text: string): string {
  return redactTokenParameters(text);
}

/**
 * `text` with every secret redacted in any spelling (as given, any case, percent-encoded, escaped for Markdown,
 * JSON, XML or HTML, or cut short after 8 characters or more), URL credentials and credential-like query
 * parameters redacted. No control or format character is touched: what the CLI writes itself (colours, progress)
 * passes through this as the output's second line of defence.
 * @example redactText('key svc_abc-123_xyz', ['svc_abc-123_xyz']) // 'key [redacted]'
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = redact(result, secret);
  return withoutTokenParameters(withoutUrlCredentials(result));
}

/**
 * One raw value (a field of the service's answer, a string in a document about to be serialised) with every secret
 * redacted in any spelling, URL credentials in raw form (a password with `"`, `<`, `>`, `[` or `]`) and
 * credential-like query parameters up to where a raw URL's value ends. Nothing else is touched.
 * @example redactValue('a[href="/reset?token=abc"]', []) // 'a[href="/reset?token=[redacted]"]'
 */
export function redactValue(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = redact(result, secret);
  return redactTokenParameters(redactUrlCredentials(result, { raw: true }), { raw: true });
}

/**
 * A raw value from the service made safe to print anywhere: {@link redactValue}, then {@link visibleText}.
 * @example safeText('https://u:p"w@h/\u001b', []) // 'https://[redacted]@h/\uFFFD'
 */
export function safeText(text: string, secrets: readonly string[]): string {
  return visibleText(redactValue(text, secrets));
}

/**
 * A copy of parsed JSON (a check, its findings) with {@link safeText} applied to every string, keys included.
 * @example const check = safeCopy(raw, [apiKey]) as CiCheck;
 */
export function safeCopy<T>(value: T, secrets: readonly string[]): T {
  return mapJsonStrings(value, (text) => safeText(text, secrets));
}

/**
 * A copy of JSON-serialisable `value` with `map` applied to every string in it, keys included.
 * @example mapJsonStrings({ a: ['x'] }, (s) => s.toUpperCase()) // { A: ['X'] }
 */
export function mapJsonStrings<T>(value: T, map: (text: string) => string): T {
  return value === undefined ? value : (parseMapped(JSON.stringify(value), map) as T);
}

/**
 * `text` parsed as JSON with `map` applied to every string in it, keys included.
 * @throws SyntaxError when `text` is not JSON
 * @example parseMapped('{"a":"x"}', (s) => s.toUpperCase()) // { A: 'X' }
 */
export function parseMapped(text: string, map: (text: string) => string): unknown {
  // JSON.parse calls the reviver bottom-up: every string value is mapped, then every object's keys (as own data
  // properties: a "__proto__" key stays data).
  return JSON.parse(text, (_key, item: unknown) => {
    if (typeof item === 'string') return map(item);
    if (item && typeof item === 'object' && !Array.isArray(item))
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [map(k), v]));
    return item;
  });
}

/**
 * {@link safeText} on one line: line breaks and tabs become spaces (for table cells and error lines).
 * @example safeLine('a\nb\u202Ec', []) // 'a b\uFFFDc'
 */
export function safeLine(text: string, secrets: readonly string[]): string {
  return safeText(text, secrets).replace(/[\n\t]/g, ' ');
}

// JSON.stringify leaves C1 controls, invisible format characters and U+2028/U+2029 as they are; as `\uXXXX`
// escapes they read the same to every JSON parser and do nothing to a terminal or a log viewer.
const RAW_IN_JSON = /[\u007F-\u009F\u2028\u2029\p{Cf}]/gu;

/**
 * `JSON.stringify(value, null, 2)` with C1 controls, DEL, U+2028/U+2029 and format characters escaped: lossless
 * for a parser, inert on a terminal.
 * @example jsonText({ a: '\u202E' }) // '{\n  "a": "\\u202e"\n}'
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    RAW_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
