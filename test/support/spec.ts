// Reads openapi.yaml for table-driven tests (operations, named examples, problem codes).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const text = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');

/** The parsed OpenAPI description (plain data, `$ref`s left as they are). */
export const spec = parse(text) as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response>; examples: Record<string, { value: unknown }> };
};

export interface Response {
  $ref?: string;
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { examples?: Record<string, { value?: unknown; $ref?: string }> }>;
}
export interface Operation {
  operationId: string;
  responses: Record<string, Response>;
  security?: Array<Record<string, string[]>>;
}

/** Resolves a local `#/components/...` reference. */
export function resolve<T>(node: T | { $ref: string }): T {
  if (node && typeof node === 'object' && '$ref' in node && typeof node.$ref === 'string') {
    const parts = node.$ref.replace(/^#\//, '').split('/');
    // biome-ignore lint/suspicious/noExplicitAny: walks any JSON document by a $ref path.
    return resolve(parts.reduce<any>((acc, key) => acc[key], spec));
  }
  return node as T;
}

/** Every operation as `{ method, path, operationId, operation }`. */
export const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    operationId: operation.operationId,
    operation,
  })),
);

/** The named examples of one response of one operation, resolved: `[[name, value], …]`. */
export function examplesOf(operationId: string, status: string): Array<[string, unknown]> {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  const response = resolve(op.operation.responses[status]!);
  const media = Object.values(response.content ?? {})[0];
  return Object.entries(media?.examples ?? {}).map(([name, ex]) => [name, resolve(ex as { value: unknown }).value]);
}
