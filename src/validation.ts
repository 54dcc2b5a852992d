// Request pre-validation with the generated zod schemas (bad input fails before any network), and the
// opt-in response validation, whose schemas are loaded only when it is turned on.
import * as z from 'zod/mini';
import { RequestValidationError, ResponseValidationError } from './errors.js';

type Issue = z.core.$ZodIssue;

/** Throws `RequestValidationError` naming the first offending field and the rule it broke. */
export function validateRequest(schema: z.ZodMiniType | undefined, value: unknown, prefix?: string): void {
  if (!schema) return;
  // reportInput lets the message tell "is required" (undefined) from "must be a boolean".
  const result = z.safeParse(schema, value, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new RequestValidationError(fieldName(issue.path, prefix), describeRule(issue));
  }
}

/** Validates a 2xx body against the operation's response schema (loaded on first use). */
export async function validateResponse(operationId: string, data: unknown): Promise<void> {
  const { responseSchemas } = await import('./response-schemas.js');
  const schema = responseSchemas[operationId];
  if (!schema) return;
  const result = z.safeParse(schema, data, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ResponseValidationError(operationId, fieldName(issue.path, 'body'), describeRule(issue));
  }
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
      return `must ${issue.origin === 'array' ? 'hold' : 'be'} at most ${String(issue.maximum)}${unit(issue.origin)}`;
    case 'too_small':
      return `must ${issue.origin === 'array' ? 'hold' : 'be'} at least ${String(issue.minimum)}${unit(issue.origin)}`;
    case 'invalid_format':
      if (issue.format === 'regex' && /\^\[Hh\]\[Tt\]/.test(issue.pattern ?? '')) return 'must be an absolute http(s) URL';
      return issue.format === 'regex' ? `must match ${issue.pattern}` : `must be a valid ${issue.format.toUpperCase()}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown keys ${issue.keys.join(', ')}`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'is invalid';
  }
}

function unit(origin: string): string {
  return origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '';
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
