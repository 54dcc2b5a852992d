// generated — do not edit. Source: openapi.yaml; regenerate with `npm run generate`.

import * as z from 'zod/mini';

import { isRfc3339DateTime } from '../src/internal/date-time.js';

/**
 * A site registered in the organization.
 */
export const zV1SiteResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid(),
    name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    rootUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    normalizedHost: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    verified: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean())
});

/**
 * Finding counts by impact.
 */
export const zV1SeverityCounts = /* @__PURE__ */ z.object({
    critical: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    serious: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    moderate: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    minor: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * Terminal failure reason of a scan or scan run.
 */
export const zFailureReason = /* @__PURE__ */ z.object({
    code: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    reason: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * Status of an asynchronous job (scan, scan run, journey run, fix verification). The allowed values are
 * not shown in the service's document, so this is an open string. `QUEUED` and `RUNNING` are not
 * results; any other status is terminal.
 *
 */
export const zJobStatus = /* @__PURE__ */ z.string();

/**
 * A single-page scan.
 */
export const zV1ScanResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: zJobStatus,
    requestedUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    counts: /* @__PURE__ */ z.optional(zV1SeverityCounts),
    totalViolations: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReason: /* @__PURE__ */ z.optional(zFailureReason)
});

/**
 * A full-site scan run (crawl).
 */
export const zV1ScanRunResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: zJobStatus,
    pagesTotal: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesDone: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    counts: /* @__PURE__ */ z.optional(zV1SeverityCounts),
    totalViolations: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReason: /* @__PURE__ */ z.optional(zFailureReason)
});

/**
 * Accepted response of a scan or scan run creation.
 */
export const zV1ScanAcceptedResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    status: zJobStatus
});

/**
 * Accepted response of a fix verification creation.
 */
export const zV1FixVerificationAcceptedResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    status: zJobStatus
});

/**
 * Flat finding record. A scan returns its own findings; a scan run returns run-level findings
 * deduplicated by rule.
 *
 */
export const zV1ViolationResponse = /* @__PURE__ */ z.object({
    ruleId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    impact: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    wcagSc: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
    url: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    helpUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    target: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    htmlSnippet: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    failureSummary: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * URL-level finding of a CI check, with a stable fingerprint and a baseline marker.
 */
export const zV1CiViolationResponse = /* @__PURE__ */ z.object({
    ruleId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    impact: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    wcagSc: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
    url: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    helpUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    target: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    failureSummary: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    fingerprint: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    isNew: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean())
});

/**
 * Page entry of a CI check or fix verification.
 */
export const zPage = /* @__PURE__ */ z.object({
    url: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.enum([
        'QUEUED',
        'RUNNING',
        'DONE',
        'TIMEOUT',
        'UNREACHABLE',
        'ERROR'
    ])),
    counts: /* @__PURE__ */ z.optional(zV1SeverityCounts)
});

/**
 * Minimum impact that makes a CI check fail.
 */
export const zFailOn = /* @__PURE__ */ z.enum([
    'NEW_CRITICAL',
    'ANY_CRITICAL',
    'SERIOUS_OR_WORSE',
    'NONE'
]);

/**
 * A CI check with its progress, baseline delta and verdict.
 */
export const zV1CiCheckResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid(),
    status: /* @__PURE__ */ z.enum([
        'QUEUED',
        'RUNNING',
        'COMPLETED',
        'FAILED'
    ]),
    verdict: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.enum(['PASS', 'FAIL'])),
    failOn: /* @__PURE__ */ z.optional(zFailOn),
    baselineMissing: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    counts: /* @__PURE__ */ z.optional(zV1SeverityCounts),
    newCounts: /* @__PURE__ */ z.optional(zV1SeverityCounts),
    fixedCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    unchangedCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    baselineCheckId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.guid()),
    pages: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(zPage)),
    appUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    failureReason: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * Accepted response of a CI check creation.
 */
export const zV1CiCheckAcceptedResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

/**
 * Absolute HTTP(S) page URL on a site registered in the organization; at most 2048 characters
 * (`url` of a single-page scan and each entry of a CI check's `urls`).
 *
 */
export const zPageUrl = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(2048), /* @__PURE__ */ z.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s\/?#]+[^\s]*$/));

/**
 * CI check creation request.
 */
export const zV1CreateCiCheckRequest = /* @__PURE__ */ z.object({
    urls: /* @__PURE__ */ z.array(zPageUrl).check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(20)),
    failOn: /* @__PURE__ */ z.optional(zFailOn),
    setBaseline: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    context: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()))
});

/**
 * Single-page scan request.
 */
export const zV1CreateScanRequest = /* @__PURE__ */ z.object({
    url: zPageUrl
});

/**
 * Scan run request.
 */
export const zV1CreateScanRunRequest = /* @__PURE__ */ z.object({
    siteId: /* @__PURE__ */ z.guid()
});

/**
 * A saved journey of a site.
 */
export const zV1JourneyResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    name: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    usesAuth: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    createdAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime))
});

/**
 * A checkpoint of a journey run (a scanned page along the journey).
 */
export const zCheckpoint = /* @__PURE__ */ z.object({
    scanId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    label: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    url: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * A run of a saved journey.
 */
export const zV1JourneyRunResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    journeyId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: zJobStatus,
    failedStepIndex: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReasonCode: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    failureReasonText: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    checkpoints: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(zCheckpoint)),
    startedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime)),
    finishedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime)),
    createdAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime))
});

/**
 * One scan run in a site's trend.
 */
export const zTrendPoint = /* @__PURE__ */ z.object({
    scanRunId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    finishedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime)),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    pagesScanned: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    truncated: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    totalViolations: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    bySeverity: /* @__PURE__ */ z.optional(zV1SeverityCounts),
    addedCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    resolvedCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * Violation-count trend of a site; points are chronological; the trend carries no score.
 */
export const zV1SiteTrendResponse = /* @__PURE__ */ z.object({
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    standard: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    points: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(zTrendPoint))
});

/**
 * A tracked fix (remediation item) of a site.
 */
export const zV1FixResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    ruleId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    impact: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    rootCauseKey: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    componentLabel: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    verifiedScope: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    verifiedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime)),
    verifiedPagesCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    nodesCountAtTracking: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesCountAtTracking: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    verifiable: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean())
});

/**
 * A fix verification (targeted automated re-check of a tracked remediation item).
 */
export const zV1FixVerificationResponse = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.string(),
    remediationItemId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    siteId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: zJobStatus,
    outcome: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    source: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    scopeGranularity: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    rootCauseKey: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    pagesRequested: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesScanned: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesFailed: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    nodesFound: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    ruleNodesFound: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pages: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(zPage)),
    failureReasonCode: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    startedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime)),
    finishedAt: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime))
});

/**
 * Totals of a root-cause analysis.
 */
export const zRootCauseSummary = /* @__PURE__ */ z.object({
    findingsTotal: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.coerce.bigint().check(/* @__PURE__ */ z.minimum(/* @__PURE__ */ BigInt('-9223372036854775808'), { error: 'Invalid value: Expected int64 to be >= -9223372036854775808' }), /* @__PURE__ */ z.maximum(/* @__PURE__ */ BigInt('9223372036854775807'), { error: 'Invalid value: Expected int64 to be <= 9223372036854775807' }))),
    analyzedFindings: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    clustersTotal: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    clusteredFindings: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesTotal: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * The component a root cause was traced to.
 */
export const zRootCauseComponent = /* @__PURE__ */ z.object({
    label: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    source: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    platform: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * A group of findings sharing one root cause.
 */
export const zCluster = /* @__PURE__ */ z.object({
    key: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    ruleId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    impact: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    wcagSc: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
    pattern: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    selectorSignature: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    component: /* @__PURE__ */ z.optional(zRootCauseComponent),
    nodesCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesCount: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    samplePages: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
    sampleSelectors: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
    guidance: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    exampleFix: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    helpUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * Deterministic root-cause groups of a scan run.
 */
export const zV1RootCauseResponse = /* @__PURE__ */ z.object({
    scope: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    signatureVersion: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    summary: /* @__PURE__ */ z.optional(zRootCauseSummary),
    truncated: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.boolean()),
    clusters: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(zCluster)),
    coverageDisclaimer: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string())
});

/**
 * RFC 7807 problem (`application/problem+json`). Clients branch on `code`, never on `detail`.
 * Known codes: API_KEY_INVALID (401); API_KEY_SCOPE_MISSING, FEATURE_NOT_IN_PLAN (403);
 * SITE_NOT_FOUND, SCAN_NOT_FOUND, JOURNEY_NOT_FOUND, CI_CHECK_NOT_FOUND (404, pattern *_NOT_FOUND);
 * SCAN_ALREADY_RUNNING, JOURNEY_ALREADY_RUNNING (pattern *_ALREADY_RUNNING), DOMAIN_NOT_VERIFIED (409);
 * VALIDATION_FAILED, INVALID_URL, SITE_AUTH_NOT_CONFIGURED (422); RATE_LIMITED (429).
 * Field-level validation detail within VALIDATION_FAILED is not shown in the service's document.
 *
 */
export const zProblemDetail = /* @__PURE__ */ z.object({
    type: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.url()),
    title: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    status: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    detail: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    instance: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    code: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
    traceId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.guid()),
    timestamp: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.stringFormat('date-time', isRfc3339DateTime))
});

/**
 * Body of a webhook delivery. Its shape is not shown in the service's document: an open JSON object.
 *
 */
export const zWebhookEventBody = /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown());

/**
 * Resource id (UUID).
 */
export const zId = /* @__PURE__ */ z.guid();

export const zCreateScanBody = zV1CreateScanRequest;

export const zGetScanPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zListScanViolationsPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zCreateScanRunBody = zV1CreateScanRunRequest;

export const zGetScanRunPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zListScanRunViolationsPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zGetScanRunRootCausesPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zListSiteJourneysPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zCreateJourneyRunPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zGetJourneyRunPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zGetSiteTrendPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zGetSiteTrendQuery = /* @__PURE__ */ z.object({
    limit: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), /* @__PURE__ */ z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

export const zListSiteFixesPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zCreateFixVerificationPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zGetFixVerificationPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zCreateCiCheckBody = zV1CreateCiCheckRequest;

export const zGetCiCheckPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zListCiCheckViolationsPath = /* @__PURE__ */ z.object({
    id: /* @__PURE__ */ z.guid()
});

export const zOnScanRunCompletedWebhookRequest = /* @__PURE__ */ z.object({
    body: zWebhookEventBody,
    path: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.never()),
    query: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.never()),
    headers: /* @__PURE__ */ z.object({
        'X-Svc-Event': /* @__PURE__ */ z.string(),
        'X-Svc-Delivery': /* @__PURE__ */ z.string(),
        'X-Svc-Timestamp': /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[0-9]+$/)),
        'X-Svc-Signature': /* @__PURE__ */ z.string()
    })
});
