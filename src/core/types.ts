// Friendly names for the API's records, re-exported by name from the generated types (never `export *`,
// so a regeneration cannot silently widen the public API).
import type { components } from '../../generated/schema.js';

/** A site registered in the organization. */
export type Site = components['schemas']['V1SiteResponse'];
/** Finding counts by impact. */
export type SeverityCounts = components['schemas']['V1SeverityCounts'];
/** Terminal failure reason of a scan or scan run. */
export type FailureReason = components['schemas']['FailureReason'];
/** A single-page scan. */
export type Scan = components['schemas']['V1ScanResponse'];
/** A full-site scan run. */
export type ScanRun = components['schemas']['V1ScanRunResponse'];
/** The 202 body of a scan or scan run creation. */
export type ScanAccepted = components['schemas']['V1ScanAcceptedResponse'];
/** The 202 body of a fix verification creation. */
export type FixVerificationAccepted = components['schemas']['V1FixVerificationAcceptedResponse'];
/** A flat finding of a scan or scan run. */
export type Violation = components['schemas']['V1ViolationResponse'];
/** A finding of a CI check, with its stable fingerprint and baseline marker. */
export type CiViolation = components['schemas']['V1CiViolationResponse'];
/** A page entry of a CI check or fix verification. */
export type Page = components['schemas']['Page'];
/** Status of a page entry. */
export type PageStatus = NonNullable<Page['status']>;
/** A CI check with its progress, baseline delta and verdict. */
export type CiCheck = components['schemas']['V1CiCheckResponse'];
/** Status of a CI check. */
export type CiCheckStatus = CiCheck['status'];
/** Verdict of a completed CI check. */
export type Verdict = NonNullable<CiCheck['verdict']>;
/** Minimum impact that makes a CI check fail. */
export type FailOn = components['schemas']['FailOn'];
/** The 202 body of a CI check creation. */
export type CiCheckAccepted = components['schemas']['V1CiCheckAcceptedResponse'];
/** Body of `ciChecks.create`. */
export type CreateCiCheckRequest = components['schemas']['V1CreateCiCheckRequest'];
/** Body of `scans.create`. */
export type CreateScanRequest = components['schemas']['V1CreateScanRequest'];
/** Body of `scanRuns.create`. */
export type CreateScanRunRequest = components['schemas']['V1CreateScanRunRequest'];
/** A saved journey of a site. */
export type Journey = components['schemas']['V1JourneyResponse'];
/** A run of a saved journey. */
export type JourneyRun = components['schemas']['V1JourneyRunResponse'];
/** A checkpoint of a journey run. */
export type Checkpoint = components['schemas']['Checkpoint'];
/** A site's violation-count trend. */
export type SiteTrend = components['schemas']['V1SiteTrendResponse'];
/** One point of a site's trend. */
export type TrendPoint = components['schemas']['TrendPoint'];
/** A tracked fix (remediation item). */
export type Fix = components['schemas']['V1FixResponse'];
/** A fix verification. */
export type FixVerification = components['schemas']['V1FixVerificationResponse'];
/** Root-cause groups of a scan run. */
export type RootCauses = components['schemas']['V1RootCauseResponse'];
/** Totals of a root-cause analysis. */
export type RootCauseSummary = components['schemas']['RootCauseSummary'];
/** A group of findings sharing one root cause. */
export type RootCauseCluster = components['schemas']['Cluster'];
/** The component a root cause was traced to. */
export type RootCauseComponent = components['schemas']['RootCauseComponent'];
