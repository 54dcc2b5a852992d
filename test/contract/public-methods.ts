// Which public method of the client sends each operation, found by calling every method of every resource
// (`client.sites`, `client.scans`, …) against a transport that records the operation it is asked to send.
import { readdirSync, readFileSync } from 'node:fs';
import { A11yClient } from '../../src/index.js';

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const resourcesDir = new URL('../../src/resources/', import.meta.url);

/** One operation of openapi.yaml: method, path template, operationId. */
export interface DescribedOperation {
  method: string;
  path: string;
  operationId: string;
}

/** operationId → the public methods that send it (`scans.get`, `scans.waitForCompletion`, …). */
export async function methodsByOperation(): Promise<Map<string, string[]>> {
  const client = new A11yClient({ apiKey: 'svc_public_methods_key', baseUrl: 'https://a11y.example.com' });
  const found = new Map<string, string[]>();
  for (const [name, resource] of Object.entries(client)) {
    const proto = resource && typeof resource === 'object' ? Object.getPrototypeOf(resource) : null;
    if (!proto || proto === Object.prototype) continue;
    for (const method of Object.getOwnPropertyNames(proto).filter(
      (m) => m !== 'constructor' && typeof proto[m] === 'function',
    )) {
      let seen: string | undefined;
      const record = (op: { id: string }) => {
        seen ??= op.id;
        return Promise.reject(new Error('recorded'));
      };
      // A fresh resource over the recording transport: nothing is sent, the first operation asked for is kept.
      const fake = new (proto.constructor as new (t: unknown) => Record<string, (...args: unknown[]) => unknown>)({
        request: record,
        send: record,
        options: { baseUrl: 'https://a11y.example.com' },
      });
      await Promise.resolve(fake[method]!(UUID, { timeoutMs: 1_000 })).catch(() => undefined);
      if (seen) found.set(seen, [...(found.get(seen) ?? []), `${name}.${method}`]);
    }
  }
  return found;
}

/** The resource file a new operation belongs in: the one holding the operations that share its first path segment. */
function resourceFileFor(op: DescribedOperation, all: DescribedOperation[], methods: Map<string, string[]>): string {
  const segment = (path: string) => path.replace(/^\/api\/v\d+\//, '').split('/')[0];
  const sibling = all.find(
    (o) => o.operationId !== op.operationId && segment(o.path) === segment(op.path) && methods.has(o.operationId),
  );
  const property = sibling && methods.get(sibling.operationId)![0]!.split('.')[0]!;
  const className = property ? property[0]!.toUpperCase() + property.slice(1) : undefined;
  const file =
    className &&
    readdirSync(resourcesDir).find((f) =>
      readFileSync(new URL(f, resourcesDir), 'utf8').includes(`export class ${className} `),
    );
  return file
    ? `src/resources/${file}`
    : `a new file in src/resources/ (and a property of A11yClient in src/client.ts)`;
}

/** One line per operation without a public method, saying where to add it; empty when every one has one. */
export function missingMethods(all: DescribedOperation[], methods: Map<string, string[]>): string[] {
  return all
    .filter((op) => !methods.has(op.operationId))
    .map(
      (op) =>
        `${op.method} ${op.path} (${op.operationId}) has no resource method: add it in ${resourceFileFor(op, all, methods)} ` +
        `(a row in src/core/operations.ts, then a method calling it) and a contract row in test/contract/operations.test.ts`,
    );
}
