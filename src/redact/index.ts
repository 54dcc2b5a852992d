// Public entry @svc/a11y-sdk/redact: the redaction the SDK applies to its errors and debug logs, and the CLI to its
// reports (with the key's echoed forms: without its prefix, in base64), for your own logs. An entry of its own so that the root bundle does not carry its patterns (~0.3 kB gzip)
// for the users who never call them.
export { redactEchoes as redactEchoedSecret, redact as redactSecret } from '../internal/redact.js';
export { redactTokenParameters, redactUrlCredentials } from '../internal/url-secrets.js';
