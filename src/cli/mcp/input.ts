// Tool inputs checked against the JSON Schema tools/list shows, before anything is sent: a broken rule becomes an
// `isError` result naming each field, in words an agent can act on (not a validator's dump).
import type { Ajv, ErrorObject } from 'ajv';
import { ID_INPUT, URL_INPUT } from './schemas.js';
import type { JsonSchema, Tool } from './tool.js';

/** A rule an input broke: the field, as `urls[3]`, and the rule in words. */
interface BrokenRule {
  field: string;
  rule: string;
}

/** A compiled check of one tool's input: the broken rules, at most one per field; empty when the input is good. */
export type InputCheck = (input: unknown) => BrokenRule[];

/** The JSON Schema of an absolute http(s) URL of at most 2048 characters (the description's, document §8). */
export const URL_SCHEMA: JsonSchema = URL_INPUT;

/** The JSON Schema of a resource id: a UUID (the description's `format: uuid`). */
export const ID_SCHEMA: JsonSchema = ID_INPUT;

/** The bounds of `timeoutMs`, in milliseconds: one second to the SDK's default wait of ten minutes. */
export const TIMEOUT_BOUNDS = { minimum: 1_000, maximum: 600_000 } as const;

/** The JSON Schema of `timeoutMs`. */
export const TIMEOUT_SCHEMA: JsonSchema = {
  type: 'integer',
  ...TIMEOUT_BOUNDS,
  default: TIMEOUT_BOUNDS.maximum,
  description:
    'Longest time the call may take in milliseconds, covering the request that starts the job and the reads of its findings (1000–600000, default 600000). When it runs out the job keeps running at the service.',
};

/** How long a read tool (list_sites, get_findings, explain_root_causes) waits by default: under the 60 s that
 * agents' clients commonly give a call. */
const READ_TIMEOUT_MS = 30_000;

/** The JSON Schema of a read tool's `timeoutMs`. */
export const READ_TIMEOUT_SCHEMA: JsonSchema = {
  type: 'integer',
  ...TIMEOUT_BOUNDS,
  default: READ_TIMEOUT_MS,
  description: `Longest time the call may take in milliseconds, the reads of the findings included (1000–600000, default ${READ_TIMEOUT_MS}).`,
};

/**
 * The bound of one call in milliseconds: its input's `timeoutMs`, else the default of its schema.
 * @example callBound(tool, { urls }) // 600000 for check_pages, 30000 for get_findings
 */
export function callBound(tool: Tool, input: Record<string, unknown>): number {
  if (typeof input.timeoutMs === 'number') return input.timeoutMs;
  const schema = (tool.inputSchema.properties as Record<string, JsonSchema> | undefined)?.timeoutMs;
  return typeof schema?.default === 'number' ? schema.default : READ_TIMEOUT_MS;
}

/**
 * Compiles the check of `tool`'s input (its schema, then its `refine` rule).
 * @example const broken = compileInput(ajv, tool)(args); // [{ field: 'urls', rule: 'takes at most 20 items' }]
 */
export function compileInput(ajv: Ajv, tool: Tool): InputCheck {
  const validate = ajv.compile(tool.inputSchema);
  const names = Object.keys((tool.inputSchema.properties ?? {}) as object);
  return (input) => {
    if (!validate(input)) return describe(validate.errors ?? [], names);
    const broken = tool.refine?.(input as Record<string, unknown>);
    return broken ? [broken] : [];
  };
}

// One line per field (a URL that breaks both its pattern and its format is one mistake), at most five.
function describe(errors: readonly ErrorObject[], names: readonly string[]): BrokenRule[] {
  const byField = new Map<string, string>();
  for (const error of errors) {
    const [field, rule] = explain(error, names);
    if (!byField.has(field)) byField.set(field, rule);
  }
  return [...byField].slice(0, 5).map(([field, rule]) => ({ field, rule }));
}

// `/urls/3` → `urls[3]`: the spelling of the SDK's own RequestValidationError.
function fieldOf(path: string, child?: string): string {
  const parts = [...path.split('/').slice(1), ...(child === undefined ? [] : [child])];
  const named = parts.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('');
  return named.replace(/^\./, '') || 'the input';
}

function explain(error: ErrorObject, names: readonly string[]): [field: string, rule: string] {
  const params = error.params as Record<string, unknown>;
  const field = fieldOf(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return [fieldOf(error.instancePath, String(params.missingProperty)), 'is required'];
    case 'additionalProperties':
      return [
        fieldOf(error.instancePath, String(params.additionalProperty)),
        `is not an input of this tool (its inputs: ${names.length ? names.join(', ') : 'none'})`,
      ];
    case 'pattern':
    case 'format':
      // Which rule a field follows is plain from its name: URLs, or ids.
      return [field, /url/i.test(field) ? 'must be an absolute http(s) URL' : 'must be a UUID (8-4-4-4-12 hex digits)'];
    case 'maxItems':
      return [field, `takes at most ${params.limit} items`];
    case 'minItems':
      return [field, `takes at least ${params.limit} item${params.limit === 1 ? '' : 's'}`];
    case 'maxLength':
      return [field, `must be at most ${params.limit} characters`];
    case 'minimum':
    case 'maximum':
      return [field, `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${params.limit}`];
    case 'enum':
      return [field, `must be one of ${(params.allowedValues as unknown[]).join(', ')}`];
    case 'type':
      return [field, `must be ${params.type === 'integer' ? 'a whole number' : `of type ${params.type}`}`];
    default:
      return [field, error.message ?? 'is invalid'];
  }
}
