// The API's 18 operations: method, path template and the generated request schemas that guard them.
import type { operations, paths } from '../../generated/schema.js';
import * as z from 'zod/mini';
import * as gen from '../../generated/zod.requests.gen.js';

/** A generated zod schema, typed structurally so the published declarations need no zod import. */
export type Schema = { readonly _zod: unknown };

/** An operationId of openapi.yaml (webhooks excluded: the service calls those). */
export type OperationId = Exclude<keyof operations, `on${string}`>;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<O extends OperationId> = operations[O]['responses'];
/** The 2xx body type of an operation. */
export type SuccessBody<O extends OperationId> =
  Responses<O> extends { 200: infer R } ? JsonOf<R> : Responses<O> extends { 202: infer R } ? JsonOf<R> : never;

type Params<O extends OperationId> = operations[O]['parameters'];
type BodyOf<O extends OperationId> =
  NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer B } } ? B : undefined;
// A part the operation does not take is `?: undefined`; one whose members are all optional may be left out.
type Part<K extends string, T> = undefined extends T ? { [P in K]?: T } : { [P in K]: T };

/**
 * What a call of operation O carries, read from the generated `operations` (the types openapi-fetch's typed
 * `params` use): path parameters by their names in openapi.yaml, query, body. A resource passing
 * `{ path: { id } }` to a route whose parameter is `{siteId}` fails `tsc` ("'id' does not exist in type
 * '{ siteId: string; }'") instead of sending a literal `{siteId}`.
 * @example const input: InputOf<'getSiteTrend'> = { path: { id: siteId }, query: { limit: 30 } };
 */
type InputOf<O extends OperationId> = Part<'path', Params<O>['path']> &
  Part<'query', Params<O>['query']> &
  Part<'body', BodyOf<O>>;

/**
 * Every operation's input, by operationId. The transport takes `Inputs[O]`: where O is generic (the polling
 * helpers), TypeScript checks a value against every operation O may be, so `{ path: { id } }` must fit them all.
 */
export type Inputs = { [O in OperationId]: InputOf<O> };

/**
 * The operations a job is polled with: their whole input is `{ path: { id } }`. A get whose path parameter is
 * renamed leaves this set, so its `waitForCompletion`/`createAndWait` fail `tsc` too.
 */
export type PolledOperationId = {
  [O in OperationId]: Inputs[O] extends { path: { id: string } }
    ? { path: { id: string } } extends Inputs[O]
      ? O
      : never
    : never;
}[OperationId];

/** One operation: how to send it and which generated schemas validate its input. */
export interface Operation<O extends OperationId = OperationId> {
  readonly id: O;
  readonly method: 'GET' | 'POST';
  readonly route: string;
  readonly schemas: { readonly path?: Schema; readonly query?: Schema; readonly body?: Schema };
}

type Method = 'GET' | 'POST';
// The generated `paths` type the table at compile time: a route is accepted only where openapi.yaml puts
// operation O under that method, so a renamed path or a moved operation fails `tsc`, not a request.
type RouteOf<O extends OperationId, M extends Method> = {
  [P in keyof paths]: paths[P][Lowercase<M>] extends operations[O]
    ? operations[O] extends paths[P][Lowercase<M>]
      ? P
      : never
    : never;
}[keyof paths];

const op = <O extends OperationId, M extends Method>(
  id: O,
  method: M,
  route: RouteOf<O, M>,
  schemas: Operation['schemas'] = {},
): Operation<O> => ({
  id,
  method,
  route,
  schemas,
});

// The document shows no bounds for the trend's `limit`; a negative count of points is refused before sending.
const trendQuery = gen.zGetSiteTrendQuery.check(
  z.refine((q) => q.limit === undefined || q.limit >= 0, { message: 'must not be negative', path: ['limit'] }),
);

/** Every operation, by operationId. */
export const ops = {
  listSites: op('listSites', 'GET', '/api/v1/sites'),
  createScan: op('createScan', 'POST', '/api/v1/scans', { body: gen.zCreateScanBody }),
  getScan: op('getScan', 'GET', '/api/v1/scans/{id}', { path: gen.zGetScanPath }),
  listScanViolations: op('listScanViolations', 'GET', '/api/v1/scans/{id}/violations', {
    path: gen.zListScanViolationsPath,
  }),
  createScanRun: op('createScanRun', 'POST', '/api/v1/scan-runs', { body: gen.zCreateScanRunBody }),
  getScanRun: op('getScanRun', 'GET', '/api/v1/scan-runs/{id}', { path: gen.zGetScanRunPath }),
  listScanRunViolations: op('listScanRunViolations', 'GET', '/api/v1/scan-runs/{id}/violations', {
    path: gen.zListScanRunViolationsPath,
  }),
  getScanRunRootCauses: op('getScanRunRootCauses', 'GET', '/api/v1/scan-runs/{id}/root-causes', {
    path: gen.zGetScanRunRootCausesPath,
  }),
  listSiteJourneys: op('listSiteJourneys', 'GET', '/api/v1/sites/{id}/journeys', { path: gen.zListSiteJourneysPath }),
  createJourneyRun: op('createJourneyRun', 'POST', '/api/v1/journeys/{id}/runs', { path: gen.zCreateJourneyRunPath }),
  getJourneyRun: op('getJourneyRun', 'GET', '/api/v1/journey-runs/{id}', { path: gen.zGetJourneyRunPath }),
  getSiteTrend: op('getSiteTrend', 'GET', '/api/v1/sites/{id}/trend', {
    path: gen.zGetSiteTrendPath,
    query: trendQuery,
  }),
  listSiteFixes: op('listSiteFixes', 'GET', '/api/v1/sites/{id}/fixes', { path: gen.zListSiteFixesPath }),
  createFixVerification: op('createFixVerification', 'POST', '/api/v1/remediation-items/{id}/verifications', {
    path: gen.zCreateFixVerificationPath,
  }),
  getFixVerification: op('getFixVerification', 'GET', '/api/v1/fix-verifications/{id}', {
    path: gen.zGetFixVerificationPath,
  }),
  createCiCheck: op('createCiCheck', 'POST', '/api/v1/ci/checks', { body: gen.zCreateCiCheckBody }),
  getCiCheck: op('getCiCheck', 'GET', '/api/v1/ci/checks/{id}', { path: gen.zGetCiCheckPath }),
  listCiCheckViolations: op('listCiCheckViolations', 'GET', '/api/v1/ci/checks/{id}/violations', {
    path: gen.zListCiCheckViolationsPath,
  }),
} as const satisfies { [O in OperationId]: Operation<O> };

// A regenerated description with a new operation fails here, naming it: "Type '{ 'operations of openapi.yaml
// without a row in ops': "createSite"; }' does not satisfy the constraint 'true'" (the `satisfies` above says it
// too, buried in the whole table's type). Types only: nothing of it reaches the bundle.
type Unlisted = Exclude<OperationId, keyof typeof ops>;
type MustBeTrue<T extends true> = T;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check; declaring it is the check.
type EveryOperationListed = MustBeTrue<
  [Unlisted] extends [never] ? true : { 'operations of openapi.yaml without a row in ops': Unlisted }
>;
