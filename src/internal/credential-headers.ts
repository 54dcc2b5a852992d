// Which headers hold a credential, by their name: the one list behind every place the SDK shows headers (its debug
// lines, and so the CLI's `--verbose`; what request and response hooks see). Loaded only with the observer's chunk
// (src/observe/), never by the root bundle.

// A word anywhere in the name, any case, so that every spelling of a name counts: `X-Api-Key`, `x_api_key`,
// `apikey`, `x-amz-security-token`, `x-csrf-token`, `proxy-authorization`, `set-cookie`, `x-hub-signature-256`.
// Broad on purpose: a harmless header that happens to hold a word (`x-idempotency-key`, `www-authenticate`) is
// shown redacted too, rather than a credential under a name nobody listed being shown.
const CREDENTIAL_WORDS = /cookie|token|key|secret|auth|session|signature|password|passwd|credential/i;

/**
 * Whether a header's value is a credential by the header's name: `authorization`, `proxy-authorization`,
 * `cookie`, `set-cookie`, and any name holding `token`, `key`, `secret`, `auth`, `session`, `signature`,
 * `password` (or `passwd`) or `credential`, in any case.
 * @example isCredentialHeader('X-Api-Key') // true
 * @example isCredentialHeader('x-request-id') // false
 */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_WORDS.test(name);
}
