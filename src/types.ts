// Friendly names for the API's records, re-exported by name from the generated types (never `export *`,
// so a regeneration cannot silently widen the public API).
import type { components } from '../generated/schema.js';

type S = components['schemas'];

/** A site registered in the organization. */
export type Site = S['V1SiteResponse'];
/** Finding counts by impact. */
export type SeverityCounts = S['V1SeverityCounts'];
/** Terminal failure reason of a scan or scan run. */
export type FailureReason = S['FailureReason'];
/** A single-page scan. */
export type Scan = S['V1ScanResponse'];
/** A full-site scan run. */
export type ScanRun = S['V1ScanRunResponse'];
/** The 202 body of a scan or scan run creation. */
export type ScanAccepted = S['V1ScanAcceptedResponse'];
/** The 202 body of a fix verification creation. */
export type FixVerificationAccepted = S['V1FixVerificationAcceptedResponse'];
/** A flat finding of a scan or scan run. */
export type Violation = S['V1ViolationResponse'];
/** A finding of a CI check, with its stable fingerprint and baseline marker. */
export type CiViolation = S['V1CiViolationResponse'];
/** A page entry of a CI check or fix verification. */
export type Page = S['Page'];
/** Status of a page entry. */
export type PageStatus = NonNullable<Page['status']>;
/** A CI check with its progress, baseline delta and verdict. */
export type CiCheck = S['V1CiCheckResponse'];
/** Status of a CI check. */
export type CiCheckStatus = CiCheck['status'];
/** Verdict of a completed CI check. */
export type Verdict = NonNullable<CiCheck['verdict']>;
/** Minimum impact that makes a CI check fail. */
export type FailOn = S['FailOn'];
/** The 202 body of a CI check creation. */
export type CiCheckAccepted = S['V1CiCheckAcceptedResponse'];
/** Body of `ciChecks.create`. */
export type CreateCiCheckRequest = S['V1CreateCiCheckRequest'];
/** Body of `scans.create`. */
export type CreateScanRequest = S['V1CreateScanRequest'];
/** Body of `scanRuns.create`. */
export type CreateScanRunRequest = S['V1CreateScanRunRequest'];
/** A saved journey of a site. */
export type Journey = S['V1JourneyResponse'];
/** A run of a saved journey. */
export type JourneyRun = S['V1JourneyRunResponse'];
/** A checkpoint of a journey run. */
export type Checkpoint = S['Checkpoint'];
/** A site's violation-count trend. */
export type SiteTrend = S['V1SiteTrendResponse'];
/** One point of a site's trend. */
export type TrendPoint = S['TrendPoint'];
/** A tracked fix (remediation item). */
export type Fix = S['V1FixResponse'];
/** A fix verification. */
export type FixVerification = S['V1FixVerificationResponse'];
/** Root-cause groups of a scan run. */
export type RootCauses = S['V1RootCauseResponse'];
/** Totals of a root-cause analysis. */
export type RootCauseSummary = S['RootCauseSummary'];
/** A group of findings sharing one root cause. */
export type RootCauseCluster = S['Cluster'];
/** The component a root cause was traced to. */
export type RootCauseComponent = S['RootCauseComponent'];
