// Request pre-validation with the generated zod schemas (bad input fails before any network), and the
// opt-in response validation, whose schemas are loaded only when it is turned on.
import * as z from 'zod/mini';
import { RequestValidationError, ResponseValidationError } from '../core/errors.js';
import type { Schema } from '../core/operations.js';

type Issue = z.core.$ZodIssue;

/**
 * Undefined when `value` is valid; else a promise rejecting with `RequestValidationError` naming the first
 * offending field and the rule it broke. Valid input (every call but a mistake) costs no promise.
 */
export function validateRequest(
  schema: Schema | undefined,
  value: unknown,
  prefix?: string,
): Promise<never> | undefined {
  const broken = brokenRule(schema, value, prefix);
  return broken?.then(({ field, rule }) => Promise.reject(new RequestValidationError(field, rule)));
}

/**
 * Undefined when `value` is valid; else the first field that breaks `schema` and the rule it breaks, in words
 * (the wording is loaded only then, in the chunk of `validation-rules.ts`, out of the root bundle).
 */
export function brokenRule(
  schema: Schema | undefined,
  value: unknown,
  prefix?: string,
): Promise<{ field: string; rule: string }> | undefined {
  const issue = schema && firstIssue(schema, value);
  return issue && ruleOf(issue).then((rule) => ({ field: fieldName(issue.path, prefix), rule }));
}

// The rule in words; where its chunk cannot be loaded (a browser gone offline), still a RequestValidationError.
function ruleOf(issue: Issue): Promise<string> {
  return import('./rules.js').then(
    ({ describeRule }) => describeRule(issue),
    () => 'is invalid',
  );
}

/** Validates a 2xx body against the operation's response schema (loaded on first use). */
export async function validateResponse(operationId: string, data: unknown): Promise<void> {
  const { responseSchemas } = await import('../core/response-schemas.js');
  const schema = responseSchemas[operationId];
  const issue = schema && firstIssue(schema, data);
  if (issue) throw new ResponseValidationError(operationId, fieldName(issue.path, 'body'), await ruleOf(issue));
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
