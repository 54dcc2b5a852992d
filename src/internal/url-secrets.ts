// Credentials that ride in URLs: a `user:password@` and token-like query parameters. One implementation for the
// SDK's debug logs and the CLI's reports (which reach it through the public `redactUrlCredentials` and
// `redactTokenParameters`), so the two cannot drift apart.

// A URL's `user:password@` in one raw field value: everything from `scheme://` to the authority's last `@`,
// where the authority ends at `/`, `?`, `#` or white space. In a raw value nothing else can end it, so a password
// holding `"`, `<`, `>`, `[` or `]` is taken whole. The scheme may start after anything, a digit or a letter
// included (a reader takes `0https://u:p@h` for a URL), and is bounded, so a long run of scheme characters costs at
// most 32 steps a character.
const RAW_USERINFO = /([a-z][a-z\d+.-]{0,31}:\/\/)[^\s/?#]*@/gi;

// A URL's `user:password@` once text has been serialised (JSON, XML, Markdown, a workflow command): the userinfo
// characters of RFC 3986, `\` for Markdown's escapes, what WHATWG parsers accept raw there (`^ { } | \``,
// non-ASCII, `@`), and the scheme's `:` escaped as a workflow command property escapes it (`%3A`). Never `"`,
// `<`, `>`, `/` or white space: they end a JSON string, an XML attribute or tag, or the authority, and redacting
// across them could join two values into one.
const SERIALISED_USERINFO = /([a-z][a-z\d+.-]{0,31}(?::|%3A)\/\/)[\w\-.~%!$&'()*+,;=:\\^{}|`@\u0080-\uffff]*@/gi;

// A query or fragment parameter whose name says it holds a credential: the whole name, or its last part after
// `_` or `-` (access_token, client_secret, X-Amz-Signature, api-key). Its value goes, its name stays.
const TOKEN_NAME =
  '([?&;#](?:[\\w.~-]*[_-])?(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|key|auth|authorization|sig|signature|session|sessionid|sid|jwt|credentials?|code)=)';
// In one raw value, the parameter's value ends where a URL's query part does: `&`, `#`, white space, or a quote or
// angle bracket that closes the attribute or string the URL sits in (`a[href="/r?token=abc"]`).
const RAW_TOKEN_PARAMETER = new RegExp(`${TOKEN_NAME}[^&#\\s"'<>]*`, 'gi');
// In serialised text (JSON, XML, HTML, Markdown, a log line) the value is taken only as far as characters that mean
// nothing to any of those syntaxes: letters, digits and `_ . ~ % + / = ! $ , : @ -`. A `\` (the start of a JSON or
// Markdown escape), a quote, `&`, `;`, `<`, `|`, a backtick or a bracket ends it, so the redaction can never take
// half of an escape or a delimiter and change the document's structure (`\"` left as `"` ended a JSON string).
const SERIALISED_TOKEN_PARAMETER = new RegExp(`${TOKEN_NAME}[\\w.~%+/=!$,:@-]*`, 'gi');

/**
 * `text` with the `user:password@` of every URL in it replaced by `[redacted]@`. By default `text` is taken as
 * serialised (JSON, XML, Markdown: a `"`, `<` or `>` ends the authority); with `raw: true` as one raw value,
 * where only `/`, `?`, `#` or white space end it, so a password holding `"`, `<`, `>`, `[` or `]` goes whole.
 * The redaction the CLI applies to its reports and the SDK to its debug logs.
 * @param options - `raw`: `text` is one raw value, not serialised text
 * @default options.raw false
 * @example redactUrlCredentials('see https://u:p@h/x') // 'see https://[redacted]@h/x'
 * @example redactUrlCredentials('https://u:p"w@h/', { raw: true }) // 'https://[redacted]@h/'
 */
export function redactUrlCredentials(text: string, options?: { raw?: boolean | undefined }): string {
  return text.includes('@') ? text.replace(options?.raw ? RAW_USERINFO : SERIALISED_USERINFO, '$1[redacted]@') : text;
}

/**
 * `text` with the values of credential-like query or fragment parameters (`token`, `access_token`, `api_key`,
 * `X-Amz-Signature`, `password`, `session`, `code`…) replaced by `[redacted]`; their names stay. By default `text` is
 * taken as serialised (JSON, XML, Markdown, a log line): a value is taken only up to the first character with a
 * meaning in one of those syntaxes (`\`, a quote, `&`, `;`, `<`, `|`, a bracket…), so the text keeps its structure.
 * With `raw: true` it is one raw value, where only `&`, `#`, white space, quotes and angle brackets end it.
 * The redaction the CLI applies to its reports and the SDK to its debug logs.
 * @param options - `raw`: `text` is one raw value, not serialised text
 * @default options.raw false
 * @example redactTokenParameters('https://h/?access_token=abc&page=2') // 'https://h/?access_token=[redacted]&page=2'
 * @example redactTokenParameters('{"u":"/r?token=a\\"b"}') // '{"u":"/r?token=[redacted]\\"b"}'
 */
export function redactTokenParameters(text: string, options?: { raw?: boolean | undefined }): string {
  return text.includes('=')
    ? text.replace(options?.raw ? RAW_TOKEN_PARAMETER : SERIALISED_TOKEN_PARAMETER, '$1[redacted]')
    : text;
}
