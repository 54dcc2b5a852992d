// Request checks shared by the handlers: path ids, bodies validated with the SDK's generated zod schemas
// (so the simulator's 422s follow the same rules the SDK pre-validates with), and page URLs.
import * as z from 'zod/mini';
import { fail } from './problems.js';
import { parseUrl } from '../internal/parse-url.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Looks up a record by path id; a non-UUID or unknown id is a 404 with `code` (none for endpoints whose
 * codes the document does not show).
 */
export function lookup<T>(map: ReadonlyMap<string, T>, id: string, code: string | undefined, what: string): T {
  const found = UUID.test(id) ? map.get(id.toLowerCase()) : undefined;
  return found ?? fail(404, code, `No ${what} with id ${id}.`);
}

/** Same as {@link lookup} over an array of records with an `id`. */
export function find<T extends { id: string }>(
  list: readonly T[],
  id: string,
  code: string | undefined,
  what: string,
): T {
  const lower = id.toLowerCase();
  const found = UUID.test(id) ? list.find((r) => r.id === lower) : undefined;
  return found ?? fail(404, code, `No ${what} with id ${id}.`);
}

/**
 * Parses a body with a generated schema. An issue inside a URL string is 422 `INVALID_URL`; any other is
 * 422 `VALIDATION_FAILED`.
 */
export function parseBody<T>(schema: z.ZodMiniType<T>, body: unknown, urlFields: readonly string[]): T {
  const result = z.safeParse(schema, body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field =
    issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '') || 'body';
  const top = String(issue.path[0] ?? '');
  // Only a string that breaks a URL rule is an invalid URL; a wrong type or a bad array size is not.
  const urlIssue =
    urlFields.includes(top) &&
    (issue.code === 'invalid_format' || (issue.code === 'too_big' && issue.origin === 'string'));
  if (urlIssue) fail(422, 'INVALID_URL', `${field} must be an absolute http(s) URL of at most 2048 characters.`);
  fail(422, 'VALIDATION_FAILED', `${field}: ${describe(issue)}.`);
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected}`;
    case 'too_small':
      return `must hold at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must hold at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return 'is invalid';
  }
}

/**
 * A page URL that passed the schema's pattern must also parse as an absolute http(s) URL (the pattern
 * lets through strings like `https://[x`); otherwise 422 `INVALID_URL`.
 */
export function pageUrl(text: string, field: string): URL {
  const url = parseUrl(text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    fail(422, 'INVALID_URL', `${field} must be an absolute http(s) URL of at most 2048 characters.`);
  }
  return url;
}
