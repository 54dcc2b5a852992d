// Request validation fuzzing: every client method with arbitrary inputs against a loopback server that counts
// requests (and answers 400 to whatever arrives). Invalid input throws RequestValidationError and sends
// nothing; input that passes is sent once, to the service's own path on 127.0.0.1; nothing else is thrown.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient, A11yError, BadRequestError, RequestValidationError } from '../../../src/index.js';
import { problem, startLoopback, type Loopback } from '../../support/loopback.js';
import { CANARY } from '../support.js';
import { FUZZ_RUNS, params, report, timeoutFor } from './runs.js';

let server: Loopback;
let client: A11yClient;
const hosts = new Set<string>();
beforeAll(async () => {
  server = await startLoopback(problem(400, 'VALIDATION_FAILED'));
  client = new A11yClient({
    apiKey: CANARY,
    baseUrl: server.url,
    timeoutMs: 2000,
    maxRetries: 0,
    fetch: (input, init) => {
      hosts.add(new URL(input instanceof Request ? input.url : String(input)).host);
      return globalThis.fetch(input, init);
    },
  });
});
afterAll(() => server.close());

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
  withObjectString: true,
  maxDepth: 2,
});
const uuid = fc.uuid();
const idArb = fc.oneof(
  { weight: 3, arbitrary: uuid },
  { weight: 1, arbitrary: uuid.map((u) => u.toUpperCase()) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: uuid.chain((u) =>
      fc.constantFrom(
        `${u}/../../sites`,
        `../${u}`,
        `${u}?x=1`,
        `${u}#f`,
        ` ${u}`,
        `${u}\n`,
        `${u}%2F..`,
        encodeURIComponent(`${u}/x`),
        `{${u}}`,
      ),
    ),
  },
  { weight: 1, arbitrary: anything },
);
const urlArb = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'https://shop.example.com/',
    'http://127.0.0.1/',
    'javascript:alert(1)',
    'ftp://x.example/',
    '/relative',
    'https://',
    `https://a.example/${'x'.repeat(2100)}`,
    'HTTPS://SHOP.EXAMPLE.COM/',
  ),
  fc.string({ maxLength: 40 }),
  anything,
);
const extraKeys = fc.dictionary(fc.string({ maxLength: 8 }), anything, { maxKeys: 2 });
const withExtras = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc
    .tuple(arb, fc.option(extraKeys, { freq: 3, nil: undefined }))
    .map(([body, extra]) => (extra ? { ...extra, ...body } : body));
const scanBody = fc.oneof(withExtras(fc.record({ url: urlArb }, { requiredKeys: [] })), anything);
const scanRunBody = fc.oneof(withExtras(fc.record({ siteId: idArb }, { requiredKeys: [] })), anything);
const ciBody = fc.oneof(
  withExtras(
    fc.record(
      {
        urls: fc.oneof(
          fc.array(urlArb, { maxLength: 22 }),
          fc.array(fc.webUrl(), { minLength: 1, maxLength: 3 }),
          anything,
        ),
        failOn: fc.oneof(
          fc.constantFrom('NEW_CRITICAL', 'ANY_CRITICAL', 'SERIOUS_OR_WORSE', 'NONE', 'new_critical', ''),
          anything,
        ),
        setBaseline: fc.oneof(fc.boolean(), anything),
        context: fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })), anything),
      },
      { requiredKeys: [] },
    ),
  ),
  anything,
);
const limitArb = fc.oneof(fc.constant(undefined), fc.integer(), fc.double(), fc.bigInt(), anything);
const waitOptions = { intervalMs: 1, maxIntervalMs: 2, timeoutMs: 2000 };

type Call = { name: string; run: () => unknown };
const callArb: fc.Arbitrary<Call> = fc.oneof(
  idArb.map((id) => ({ name: 'sites.listJourneys', run: () => client.sites.listJourneys(id as string) })),
  idArb.map((id) => ({ name: 'sites.listFixes', run: () => client.sites.listFixes(id as string) })),
  fc.tuple(idArb, limitArb).map(([id, limit]) => ({
    name: 'sites.getTrend',
    run: () => client.sites.getTrend(id as string, { limit: limit as number }),
  })),
  scanBody.map((b) => ({ name: 'scans.create', run: () => client.scans.create(b as never) })),
  scanBody.map((b) => ({
    name: 'scans.createAndWait',
    run: () => client.scans.createAndWait(b as never, waitOptions),
  })),
  idArb.map((id) => ({ name: 'scans.get', run: () => client.scans.get(id as string) })),
  idArb.map((id) => ({ name: 'scans.listViolations', run: () => client.scans.listViolations(id as string) })),
  idArb.map((id) => ({
    name: 'scans.waitForCompletion',
    run: () => client.scans.waitForCompletion(id as string, waitOptions),
  })),
  scanRunBody.map((b) => ({ name: 'scanRuns.create', run: () => client.scanRuns.create(b as never) })),
  scanRunBody.map((b) => ({
    name: 'scanRuns.createAndWait',
    run: () => client.scanRuns.createAndWait(b as never, waitOptions),
  })),
  idArb.map((id) => ({ name: 'scanRuns.get', run: () => client.scanRuns.get(id as string) })),
  idArb.map((id) => ({ name: 'scanRuns.listViolations', run: () => client.scanRuns.listViolations(id as string) })),
  idArb.map((id) => ({ name: 'scanRuns.getRootCauses', run: () => client.scanRuns.getRootCauses(id as string) })),
  idArb.map((id) => ({
    name: 'scanRuns.waitForCompletion',
    run: () => client.scanRuns.waitForCompletion(id as string, waitOptions),
  })),
  idArb.map((id) => ({ name: 'journeys.startRun', run: () => client.journeys.startRun(id as string) })),
  idArb.map((id) => ({
    name: 'journeys.runAndWait',
    run: () => client.journeys.runAndWait(id as string, waitOptions),
  })),
  idArb.map((id) => ({ name: 'journeyRuns.get', run: () => client.journeyRuns.get(id as string) })),
  idArb.map((id) => ({
    name: 'journeyRuns.waitForCompletion',
    run: () => client.journeyRuns.waitForCompletion(id as string, waitOptions),
  })),
  idArb.map((id) => ({ name: 'fixes.startVerification', run: () => client.fixes.startVerification(id as string) })),
  idArb.map((id) => ({
    name: 'fixes.verifyAndWait',
    run: () => client.fixes.verifyAndWait(id as string, waitOptions),
  })),
  idArb.map((id) => ({ name: 'fixVerifications.get', run: () => client.fixVerifications.get(id as string) })),
  idArb.map((id) => ({
    name: 'fixVerifications.waitForCompletion',
    run: () => client.fixVerifications.waitForCompletion(id as string, waitOptions),
  })),
  ciBody.map((b) => ({ name: 'ciChecks.create', run: () => client.ciChecks.create(b as never) })),
  ciBody.map((b) => ({
    name: 'ciChecks.createAndWait',
    run: () => client.ciChecks.createAndWait(b as never, waitOptions),
  })),
  idArb.map((id) => ({ name: 'ciChecks.get', run: () => client.ciChecks.get(id as string) })),
  idArb.map((id) => ({ name: 'ciChecks.listViolations', run: () => client.ciChecks.listViolations(id as string) })),
  idArb.map((id) => ({
    name: 'ciChecks.waitForCompletion',
    run: () => client.ciChecks.waitForCompletion(id as string, waitOptions),
  })),
);

describe('request validation fuzzing', () => {
  it(
    `arbitrary inputs to every method: RequestValidationError and nothing sent, or one request to the service's path (${FUZZ_RUNS} cases)`,
    async () => {
      const stats = { refused: 0, sent: 0, syncThrows: 0 };
      const syncMethods = new Set<string>();
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(callArb, async (call) => {
          const before = server.requests.length;
          let error: unknown;
          let resolved = false;
          try {
            let promise: unknown;
            try {
              promise = call.run();
            } catch (e) {
              stats.syncThrows++;
              syncMethods.add(call.name);
              throw e;
            }
            await promise;
            resolved = true;
          } catch (e) {
            error = e;
          }
          const sent = server.requests.length - before;
          expect(resolved, `${call.name} resolved against a server that answers 400`).toBe(false);
          if (error instanceof RequestValidationError) {
            expect(sent, `${call.name}: RequestValidationError but ${sent} request(s) sent`).toBe(0);
            expect(typeof error.field).toBe('string');
            expect(typeof error.rule).toBe('string');
            expect(error.message).toContain('Nothing was sent');
            stats.refused++;
            return;
          }
          // Anything else must be a documented class, after exactly one request.
          if (!(error instanceof A11yError))
            throw new Error(
              `${call.name} threw an undocumented ${Object.prototype.toString.call(error)}: ${String(error)}`,
            );
          expect(error, `${call.name}: ${String(error)}`).toBeInstanceOf(BadRequestError);
          expect(sent).toBe(1);
          const path = server.requests.at(-1)!.url;
          expect(path.startsWith('/api/v1/')).toBe(true);
          expect(path.split(/[?#]/)[0]!.split('/')).not.toContain('..');
          stats.sent++;
        }),
        params(),
      );
      expect([...hosts]).toEqual([new URL(server.url).host]);
      report('request validation', FUZZ_RUNS, performance.now() - started, stats);
      console.log(
        `[fuzz] methods that throw synchronously (not a rejected promise): ${[...syncMethods].sort().join(', ') || 'none'}`,
      );
      expect(stats.refused).toBeGreaterThan(0);
      expect(stats.sent).toBeGreaterThan(0);
    },
    timeoutFor(3),
  );
});
