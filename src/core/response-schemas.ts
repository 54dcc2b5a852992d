// Response schemas by operationId, imported only by validateResponse() (a separate chunk), so clients
// that keep response validation off never load them.
import type * as z from 'zod/mini';
import * as gen from '../../generated/zod.gen.js';

/** The generated 2xx schema of each operation, by operationId. */
export const responseSchemas: Record<string, z.ZodMiniType> = Object.fromEntries(
  Object.entries(gen)
    .filter(([name]) => name.endsWith('Response') && !name.startsWith('zV1'))
    .map(([name, schema]) => [name[1]!.toLowerCase() + name.slice(2, -'Response'.length), schema as z.ZodMiniType]),
);
