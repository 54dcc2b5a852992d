// Request pre-validation with the generated zod schemas (bad input fails before any network), and the
// opt-in response validation, whose schemas are loaded only when it is turned on.
import * as z from 'zod/mini';
import { RequestValidationError, ResponseValidationError } from './errors.js';

type Issue = z.core.$ZodIssue;

/** A generated zod schema, typed structurally so the published declarations need no zod import. */
export type Schema = { readonly _zod: unknown };

/** Throws `RequestValidationError` naming the first offending field and the rule it broke. */
export function validateRequest(schema: Schema | undefined, value: unknown, prefix?: string): void {
  const broken = brokenRule(schema, value, prefix);
  if (broken) throw new RequestValidationError(broken.field, broken.rule);
}

/** The first field of `value` that breaks `schema` and the rule it breaks, or undefined when it is valid. */
export function brokenRule(
  schema: Schema | undefined,
  value: unknown,
  prefix?: string,
): { field: string; rule: string } | undefined {
  const issue = schema && firstIssue(schema, value);
  return issue && { field: fieldName(issue.path, prefix), rule: describeRule(issue) };
}

/** Validates a 2xx body against the operation's response schema (loaded on first use). */
export async function validateResponse(operationId: string, data: unknown): Promise<void> {
  const { responseSchemas } = await import('./response-schemas.js');
  const schema = responseSchemas[operationId];
  const issue = schema && firstIssue(schema, data);
  if (issue) throw new ResponseValidationError(operationId, fieldName(issue.path, 'body'), describeRule(issue));
}

/** The first issue of `value` against `schema`, or undefined when it is valid. */
function firstIssue(schema: Schema, value: unknown): Issue | undefined {
  const zodSchema = schema as unknown as z.ZodMiniType;
  if (z.safeParse(zodSchema, value).success) return undefined;
  // Parsed again with reportInput only on failure (it costs about 1 µs on every call): the message can
  // then tell "is required" (undefined) from "must be a boolean".
  return z.safeParse(zodSchema, value, { reportInput: true }).error?.issues[0];
}

/** `['urls', 3]` → `urls[3]`. */
function fieldName(path: PropertyKey[], prefix?: string): string {
  let name = prefix ?? '';
  for (const key of path) name += typeof key === 'number' ? `[${key}]` : name ? `.${String(key)}` : String(key);
  return name || '(value)';
}

/** A rule in words, from a zod issue (zod/mini ships no messages of its own). */
function describeRule(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'too_big':
      return `must ${issue.origin === 'array' ? 'hold' : 'be'} at most ${String(issue.maximum)}${unit(issue.origin, issue.maximum)}`;
    case 'too_small':
      return `must ${issue.origin === 'array' ? 'hold' : 'be'} at least ${String(issue.minimum)}${unit(issue.origin, issue.minimum)}`;
    case 'invalid_format':
      if (issue.format === 'regex' && /\^\[Hh\]\[Tt\]/.test(issue.pattern ?? ''))
        return 'must be an absolute http(s) URL';
      if (issue.format === 'guid') return 'must be a valid UUID (8-4-4-4-12 hex digits)';
      if (issue.format === 'date-time') return 'must be an RFC 3339 date-time (such as 2026-05-01T12:00:00Z)';
      return issue.format === 'regex' ? `must match ${issue.pattern}` : `must be a valid ${issue.format.toUpperCase()}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown keys ${issue.keys.join(', ')}`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'is invalid';
  }
}

function unit(origin: string, count: number | bigint): string {
  const noun = origin === 'string' ? ' character' : origin === 'array' ? ' item' : '';
  return noun && Number(count) !== 1 ? `${noun}s` : noun;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
