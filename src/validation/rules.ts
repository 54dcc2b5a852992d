// The rules of the API description in words, from a zod issue (zod/mini ships no messages of its own). Loaded
// only when some input (or, with validateResponses, some answer) breaks a rule: out of the root bundle.
import type * as z from 'zod/mini';

type Issue = z.core.$ZodIssue;

/**
 * A rule in words, from a zod issue.
 * @example describeRule({ code: 'too_big', origin: 'array', maximum: 20, … }) // 'must hold at most 20 items'
 */
export function describeRule(issue: Issue): string {
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
