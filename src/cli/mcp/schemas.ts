// The tools' schemas, derived from the description's own (generated/zod.gen.ts, written from openapi.yaml by `npm run
// generate`) instead of typed again: the inputs keep their bounds exactly (a URL's length and pattern, 20 URLs a check,
// the failOn values, UUIDs), so a change of the description changes what tools/list shows; the results declare the
// service's fields by the description's types, and what the server adds (counts left out, a finding's source, an
// error's facts). A result's strings are made safe and may be clipped (`clipString`), so they keep their type but not
// a string's pattern, format or length.
import { type $ZodType, toJSONSchema } from 'zod/v4/core';
import {
  zCluster,
  zFailOn,
  zId,
  zPageUrl,
  zRootCauseSummary,
  zV1CiCheckResponse,
  zV1CiViolationResponse,
  zV1CreateCiCheckRequest,
  zV1FixResponse,
  zV1FixVerificationResponse,
  zV1ScanResponse,
  zV1ScanRunResponse,
  zV1SeverityCounts,
  zV1SiteResponse,
  zV1ViolationResponse,
} from '../../../generated/zod.gen.js';
import type { JsonSchema } from './tool.js';

type Properties = Record<string, JsonSchema>;

// The JSON Schema of one generated schema, without its `$schema` (tools/list embeds it in a larger document).
function json(schema: $ZodType): JsonSchema {
  const { $schema: _, ...rest } = toJSONSchema(schema, { unrepresentable: 'any', io: 'output' }) as JsonSchema;
  return rest;
}

// A string's constraints that a safe, clipped copy may no longer meet; and `additionalProperties: false`, since a
// result declares only the fields an agent needs, of the service's and the server's.
const LOOSENED = new Set(['format', 'pattern', 'minLength', 'maxLength', 'additionalProperties', 'required']);

// `schema` with those constraints taken out, all the way down.
function loose(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(loose) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema as JsonSchema;
  return Object.fromEntries(
    Object.entries(schema as JsonSchema)
      .filter(([key]) => !LOOSENED.has(key))
      .map(([key, value]) => [key, loose(value)]),
  );
}

// The properties `keys` of a generated object schema, loosened.
function fieldsOf(schema: $ZodType, keys: readonly string[]): Properties {
  const properties = (json(schema).properties ?? {}) as Properties;
  return Object.fromEntries(keys.map((key) => [key, loose(properties[key] ?? {})]));
}

const object = (properties: Properties, required: readonly string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required: [...required] } : {}),
});
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const COUNT: JsonSchema = { type: 'integer', minimum: 0 };

/** A page URL as the description bounds it: http(s), at most 2048 characters. */
export const URL_INPUT: JsonSchema = { ...json(zPageUrl), format: 'uri' };

/** A resource id: a UUID (`format: uuid` of the description). */
export const ID_INPUT: JsonSchema = json(zId);

/** `check_pages`' URLs: 1–20 of them, as a CI check takes them. */
export const URLS_INPUT: JsonSchema = {
  ...(json(zV1CreateCiCheckRequest).properties as Properties).urls,
  items: URL_INPUT,
};

/** The failOn values of the description. */
export const FAIL_ON_INPUT: JsonSchema = json(zFailOn);

/** The facts of an `isError` result (`failure`): what went wrong, in a word, and what is known of it. */
const ERROR: JsonSchema = { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] };

/** The route file of a page: repository-relative, `/`-separated, a line ≥ 1. */
const SOURCE: JsonSchema = object({ file: { type: 'string' }, line: { type: 'integer', minimum: 1 } }, [
  'file',
  'line',
]);

/** A finding as every tool returns it (see `finding`). */
const FINDING_OUTPUT: JsonSchema = object(
  {
    ...fieldsOf(zV1ViolationResponse, ['ruleId', 'impact', 'url', 'target', 'helpUrl', 'failureSummary', 'wcagSc']),
    ...fieldsOf(zV1ViolationResponse, ['htmlSnippet']),
    ...fieldsOf(zV1CiViolationResponse, ['fingerprint', 'isNew']),
    source: SOURCE,
  },
  ['wcagSc'],
);

const COUNTS = loose(json(zV1SeverityCounts));
const ID_OUTPUT = loose(ID_INPUT);
const FINDINGS = { findings: arrayOf(FINDING_OUTPUT), omitted: COUNT };

/**
 * A tool's `outputSchema`: `properties` as its successful result gives them, and `error` (an `isError` result's
 * facts), which the official client validates too.
 * @example outputSchema({ sites: arrayOf(SITE), omitted: COUNT })
 */
function outputSchema(properties: Properties): JsonSchema {
  return object({ ...properties, error: ERROR });
}

/** The `outputSchema` of each tool, by name. */
export const OUTPUT_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  list_sites: outputSchema({
    sites: arrayOf(object(fieldsOf(zV1SiteResponse, ['id', 'name', 'rootUrl', 'verified']))),
    omitted: COUNT,
  }),
  check_pages: outputSchema({
    ...fieldsOf(zV1CiCheckResponse, ['status', 'verdict', 'failOn', 'baselineMissing', 'fixedCount']),
    checkId: ID_OUTPUT,
    counts: COUNTS,
    newCounts: COUNTS,
    pages: arrayOf(object({ url: { type: 'string' }, status: { type: 'string' } })),
    failureReason: {},
    ...FINDINGS,
  }),
  scan_page: outputSchema({
    ...fieldsOf(zV1ScanResponse, ['status']),
    scanId: ID_OUTPUT,
    url: { type: 'string' },
    counts: COUNTS,
    failureReason: {},
    ...FINDINGS,
  }),
  run_site_scan: outputSchema({
    ...fieldsOf(zV1ScanRunResponse, ['status', 'pagesDone', 'pagesTotal']),
    scanRunId: ID_OUTPUT,
    counts: COUNTS,
    failureReason: {},
    ...FINDINGS,
  }),
  get_findings: outputSchema({ status: { type: 'string' }, total: COUNT, ...FINDINGS }),
  explain_root_causes: outputSchema({
    scanRunId: ID_OUTPUT,
    status: { type: 'string' },
    summary: loose(json(zRootCauseSummary)),
    truncated: { type: 'boolean' },
    clusters: arrayOf(loose(json(zCluster))),
    omitted: COUNT,
    coverageDisclaimer: { type: 'string' },
  }),
  list_fixes: outputSchema({
    fixes: arrayOf(
      object(fieldsOf(zV1FixResponse, ['id', 'ruleId', 'impact', 'status', 'verifiable', 'componentLabel'])),
    ),
    omitted: COUNT,
  }),
  verify_fix: outputSchema({
    ...fieldsOf(zV1FixVerificationResponse, [
      'remediationItemId',
      'status',
      'outcome',
      'rootCauseKey',
      'scopeGranularity',
      'pagesRequested',
      'pagesScanned',
      'pagesFailed',
      'nodesFound',
      'ruleNodesFound',
      'failureReasonCode',
    ]),
    verificationId: ID_OUTPUT,
    pages: arrayOf(object({ url: { type: 'string' }, status: { type: 'string' } })),
    omitted: COUNT,
  }),
};
