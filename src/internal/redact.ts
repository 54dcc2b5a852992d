// Inspection hooks that keep secrets out of `util.inspect` (Node) without importing `node:util`.
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Replaces every occurrence of `secret` in `text` with a marker (used on any text that could echo it). */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
