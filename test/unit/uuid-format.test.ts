// `format: uuid` in openapi.yaml is any 8-4-4-4-12 hex string (JSON Schema's uuid format, RFC 4122/9562 grammar,
// either case), not only ids with RFC 9562 version/variant nibbles as zod 4's z.uuid() demands. The generator
// emits z.guid() for it (scripts/generate.mjs); these tests pin that, in the schemas and through the client.
import { afterEach, describe, expect, it } from 'vitest';
import {
  zGetCiCheckResponse,
  zGetCiCheckPath as zGetCiCheckPathResponses,
  zV1CiCheckResponse,
} from '../../generated/zod.gen.js';
import { zCreateScanRunBody, zGetCiCheckPath, zId } from '../../generated/zod.requests.gen.js';
import { A11yClient, RequestValidationError, ResponseValidationError } from '../../src/index.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

// Version nibble `a` and variant nibble `8`: not an RFC 9562 version, so z.uuid() refuses it.
const nonRfcId = 'a672dbc6-cca7-aff8-8e0f-c726bdfe832a';
const upperId = 'A672DBC6-CCA7-AFF8-8E0F-C726BDFE832A';
const accepted = [nonRfcId, upperId, '3fa85f64-5717-4562-b3fc-2c963f66afa6', '00000000-0000-0000-0000-000000000000'];
const refused: Array<[string, unknown]> = [
  ['one hex digit short', 'a672dbc6-cca7-aff8-8e0f-c726bdfe832'],
  ['one hex digit long', 'a672dbc6-cca7-aff8-8e0f-c726bdfe832aa'],
  ['a non-hex digit', 'g672dbc6-cca7-aff8-8e0f-c726bdfe832a'],
  ['no dashes', 'a672dbc6cca7aff88e0fc726bdfe832a'],
  ['dashes misplaced', 'a672dbc6c-ca7-aff8-8e0f-c726bdfe832a'],
  ['braces', `{${nonRfcId}}`],
  ['urn prefix', `urn:uuid:${nonRfcId}`],
  ['surrounding space', ` ${nonRfcId}`],
  ['a trailing newline', `${nonRfcId}\n`],
  ['empty', ''],
  ['a number', 42],
];

describe('generated schemas: format uuid is any 8-4-4-4-12 hex', () => {
  const schemas = {
    'request path (zod.requests.gen zGetCiCheckPath)': (id: unknown) => zGetCiCheckPath.safeParse({ id }).success,
    'request body (zod.requests.gen zCreateScanRunBody.siteId)': (id: unknown) =>
      zCreateScanRunBody.safeParse({ siteId: id }).success,
    'shared definition (zod.requests.gen zId)': (id: unknown) => zId.safeParse(id).success,
    'response module path (zod.gen zGetCiCheckPath)': (id: unknown) =>
      zGetCiCheckPathResponses.safeParse({ id }).success,
    'response body (zod.gen zGetCiCheckResponse.id)': (id: unknown) =>
      zGetCiCheckResponse.safeParse({ id, status: 'COMPLETED' }).success,
    'optional response field (zod.gen zV1CiCheckResponse.baselineCheckId)': (id: unknown) =>
      zV1CiCheckResponse.safeParse({ id: nonRfcId, status: 'COMPLETED', baselineCheckId: id }).success,
  };

  // One test a schema (the place that could lose the format); every id is checked in it, named when it fails.
  it.each(Object.entries(schemas))('%s accepts every 8-4-4-4-12 hex id and refuses the rest', (_name, passes) => {
    for (const id of accepted) expect(passes(id), `accepts ${id}`).toBe(true);
    for (const [label, id] of refused) expect(passes(id), `refuses ${label}`).toBe(false);
  });
});

describe('through the public client', () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = (baseUrl: string) =>
    new A11yClient({ apiKey: 'svc_uuid_format_key', baseUrl, maxRetries: 0, validateResponses: true });

  it('sends a GET for a non-RFC 9562 id and accepts a 2xx body carrying such ids (validateResponses: true)', async () => {
    const body = { id: nonRfcId, status: 'COMPLETED', verdict: 'PASS', baselineCheckId: upperId };
    server = await startLoopback(json(200, body));
    const check = await client(server.url).ciChecks.get(nonRfcId);
    expect(check).toMatchObject(body);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('GET');
    expect(server.requests[0]!.url).toBe(`/api/v1/ci/checks/${nonRfcId}`);
  });

  it('sends an uppercase id as given', async () => {
    server = await startLoopback(json(200, { id: upperId, status: 'RUNNING' }));
    await expect(client(server.url).ciChecks.get(upperId)).resolves.toMatchObject({ id: upperId, status: 'RUNNING' });
    expect(server.requests.map((r) => r.url)).toEqual([`/api/v1/ci/checks/${upperId}`]);
  });

  it('still refuses a 2xx body whose id is not 8-4-4-4-12 hex (response validation is really on)', async () => {
    server = await startLoopback(json(200, { id: 'g672dbc6-cca7-aff8-8e0f-c726bdfe832a', status: 'COMPLETED' }));
    const err = await client(server.url)
      .ciChecks.get(nonRfcId)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as ResponseValidationError).field).toMatch(/id$/);
  });

  it.each(refused.filter(([, id]) => typeof id === 'string' && id !== ''))(
    'refuses an id with %s before sending anything',
    async (_label, id) => {
      server = await startLoopback(json(200, { id: nonRfcId, status: 'COMPLETED' }));
      const err = await client(server.url)
        .ciChecks.get(id as string)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).field).toBe('id');
      expect(server.requests).toHaveLength(0);
    },
  );
});
