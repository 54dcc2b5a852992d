// Public methods declare their results with the package's own names (what an editor's hover and the API report
// show), and each name is exactly the body its operation returns, so a regenerated description cannot make the
// declared type drift from the wire.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  A11yClient,
  CiCheck,
  CiCheckAccepted,
  CiViolation,
  Fix,
  FixVerification,
  FixVerificationAccepted,
  Journey,
  JourneyRun,
  RootCauses,
  Scan,
  ScanAccepted,
  ScanRun,
  Site,
  SiteTrend,
  Violation,
} from '../../src/index.js';
import type { SuccessBody } from '../../src/core/operations.js';

type Result<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;

describe('return types', () => {
  it('each public name is exactly the body of its operation', () => {
    expectTypeOf<SuccessBody<'listSites'>>().toEqualTypeOf<Site[]>();
    expectTypeOf<SuccessBody<'listSiteJourneys'>>().toEqualTypeOf<Journey[]>();
    expectTypeOf<SuccessBody<'getSiteTrend'>>().toEqualTypeOf<SiteTrend>();
    expectTypeOf<SuccessBody<'listSiteFixes'>>().toEqualTypeOf<Fix[]>();
    expectTypeOf<SuccessBody<'createScan'>>().toEqualTypeOf<ScanAccepted>();
    expectTypeOf<SuccessBody<'getScan'>>().toEqualTypeOf<Scan>();
    expectTypeOf<SuccessBody<'listScanViolations'>>().toEqualTypeOf<Violation[]>();
    expectTypeOf<SuccessBody<'createScanRun'>>().toEqualTypeOf<ScanAccepted>();
    expectTypeOf<SuccessBody<'getScanRun'>>().toEqualTypeOf<ScanRun>();
    expectTypeOf<SuccessBody<'listScanRunViolations'>>().toEqualTypeOf<Violation[]>();
    expectTypeOf<SuccessBody<'getScanRunRootCauses'>>().toEqualTypeOf<RootCauses>();
    expectTypeOf<SuccessBody<'createJourneyRun'>>().toEqualTypeOf<JourneyRun>();
    expectTypeOf<SuccessBody<'getJourneyRun'>>().toEqualTypeOf<JourneyRun>();
    expectTypeOf<SuccessBody<'createFixVerification'>>().toEqualTypeOf<FixVerificationAccepted>();
    expectTypeOf<SuccessBody<'getFixVerification'>>().toEqualTypeOf<FixVerification>();
    expectTypeOf<SuccessBody<'createCiCheck'>>().toEqualTypeOf<CiCheckAccepted>();
    expectTypeOf<SuccessBody<'getCiCheck'>>().toEqualTypeOf<CiCheck>();
    expectTypeOf<SuccessBody<'listCiCheckViolations'>>().toEqualTypeOf<CiViolation[]>();
  });

  it('the waiting helpers return the polled resource, not an intersection', () => {
    expectTypeOf<Result<A11yClient['scans']['createAndWait']>>().toEqualTypeOf<Scan>();
    expectTypeOf<Result<A11yClient['scanRuns']['createAndWait']>>().toEqualTypeOf<ScanRun>();
    expectTypeOf<Result<A11yClient['ciChecks']['createAndWait']>>().toEqualTypeOf<CiCheck>();
    expectTypeOf<Result<A11yClient['journeys']['runAndWait']>>().toEqualTypeOf<JourneyRun>();
    expectTypeOf<Result<A11yClient['fixes']['verifyAndWait']>>().toEqualTypeOf<FixVerification>();
    expectTypeOf<Result<A11yClient['fixVerifications']['waitForCompletion']>>().toEqualTypeOf<FixVerification>();
  });

  it('the built declarations name the types instead of inlining them', () => {
    let dts: string;
    try {
      dts = readFileSync(new URL('../../dist/index.d.ts', import.meta.url), 'utf8');
    } catch {
      throw new Error('dist/index.d.ts missing: run `npm run build` first (npm test does).');
    }
    expect(dts).toContain(
      'createAndWait(body: CreateCiCheckRequest, options?: WaitOptions<CiCheck>): APIPromise<CiCheck>;',
    );
    expect(dts).toContain('list(options?: RequestOptions): APIPromise<Site[]>;');
    expect(dts).not.toMatch(/Promise<\{/);
    expect(dts).not.toMatch(/& \{\s*id\?: unknown;/);
  });
});
