// generated — do not edit. Source: openapi.yaml; regenerate with `npm run generate`.

import * as z from 'zod/mini';

/**
 * A site registered in the organization.
 */
export const zV1SiteResponse = z.object({
    id: z.uuid(),
    name: z.optional(z.string()),
    rootUrl: z.optional(z.string()),
    normalizedHost: z.optional(z.string()),
    verified: z.optional(z.boolean())
});

/**
 * Finding counts by impact.
 */
export const zV1SeverityCounts = z.object({
    critical: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    serious: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    moderate: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    minor: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * Terminal failure reason of a scan or scan run.
 */
export const zFailureReason = z.object({
    code: z.optional(z.string()),
    reason: z.optional(z.string())
});

/**
 * Status of an asynchronous job (scan, scan run, journey run, fix verification). The allowed values are
 * not shown in the service's document, so this is an open string. `QUEUED` and `RUNNING` are not
 * results; any other status is terminal.
 *
 */
export const zJobStatus = z.string();

/**
 * A single-page scan.
 */
export const zV1ScanResponse = z.object({
    id: z.string(),
    siteId: z.optional(z.string()),
    status: zJobStatus,
    requestedUrl: z.optional(z.string()),
    counts: z.optional(zV1SeverityCounts),
    totalViolations: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReason: z.optional(zFailureReason)
});

/**
 * A full-site scan run (crawl).
 */
export const zV1ScanRunResponse = z.object({
    id: z.string(),
    siteId: z.optional(z.string()),
    status: zJobStatus,
    pagesTotal: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesDone: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    counts: z.optional(zV1SeverityCounts),
    totalViolations: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReason: z.optional(zFailureReason)
});

/**
 * Accepted response of a scan or scan run creation.
 */
export const zV1ScanAcceptedResponse = z.object({
    id: z.string(),
    status: zJobStatus
});

/**
 * Accepted response of a fix verification creation.
 */
export const zV1FixVerificationAcceptedResponse = z.object({
    id: z.string(),
    status: zJobStatus
});

/**
 * Flat finding record. A scan returns its own findings; a scan run returns run-level findings
 * deduplicated by rule.
 *
 */
export const zV1ViolationResponse = z.object({
    ruleId: z.optional(z.string()),
    impact: z.optional(z.string()),
    wcagSc: z.optional(z.array(z.string())),
    url: z.optional(z.string()),
    helpUrl: z.optional(z.string()),
    target: z.optional(z.string()),
    htmlSnippet: z.optional(z.string()),
    failureSummary: z.optional(z.string())
});

/**
 * URL-level finding of a CI check, with a stable fingerprint and a baseline marker.
 */
export const zV1CiViolationResponse = z.object({
    ruleId: z.optional(z.string()),
    impact: z.optional(z.string()),
    wcagSc: z.optional(z.array(z.string())),
    url: z.optional(z.string()),
    helpUrl: z.optional(z.string()),
    target: z.optional(z.string()),
    failureSummary: z.optional(z.string()),
    fingerprint: z.optional(z.string()),
    isNew: z.optional(z.boolean())
});

/**
 * Page entry of a CI check or fix verification.
 */
export const zPage = z.object({
    url: z.optional(z.string()),
    status: z.optional(z.enum([
        'QUEUED',
        'RUNNING',
        'DONE',
        'TIMEOUT',
        'UNREACHABLE',
        'ERROR'
    ])),
    counts: z.optional(zV1SeverityCounts)
});

/**
 * Minimum impact that makes a CI check fail.
 */
export const zFailOn = z.enum([
    'NEW_CRITICAL',
    'ANY_CRITICAL',
    'SERIOUS_OR_WORSE',
    'NONE'
]);

/**
 * A CI check with its progress, baseline delta and verdict.
 */
export const zV1CiCheckResponse = z.object({
    id: z.uuid(),
    status: z.enum([
        'QUEUED',
        'RUNNING',
        'COMPLETED',
        'FAILED'
    ]),
    verdict: z.optional(z.enum(['PASS', 'FAIL'])),
    failOn: z.optional(zFailOn),
    baselineMissing: z.optional(z.boolean()),
    counts: z.optional(zV1SeverityCounts),
    newCounts: z.optional(zV1SeverityCounts),
    fixedCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    unchangedCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    baselineCheckId: z.optional(z.uuid()),
    pages: z.optional(z.array(zPage)),
    appUrl: z.optional(z.string()),
    failureReason: z.optional(z.string())
});

/**
 * Accepted response of a CI check creation.
 */
export const zV1CiCheckAcceptedResponse = z.object({
    id: z.uuid()
});

/**
 * Absolute HTTP(S) page URL on a site registered in the organization; at most 2048 characters
 * (`url` of a single-page scan and each entry of a CI check's `urls`).
 *
 */
export const zPageUrl = z.string().check(z.maxLength(2048), z.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s\/?#]+[^\s]*$/));

/**
 * CI check creation request.
 */
export const zV1CreateCiCheckRequest = z.object({
    urls: z.array(zPageUrl).check(z.minLength(1), z.maxLength(20)),
    failOn: z.optional(zFailOn),
    setBaseline: z.optional(z.boolean()),
    context: z.optional(z.record(z.string(), z.unknown()))
});

/**
 * Single-page scan request.
 */
export const zV1CreateScanRequest = z.object({
    url: zPageUrl
});

/**
 * Scan run request.
 */
export const zV1CreateScanRunRequest = z.object({
    siteId: z.uuid()
});

/**
 * A saved journey of a site.
 */
export const zV1JourneyResponse = z.object({
    id: z.string(),
    siteId: z.optional(z.string()),
    name: z.optional(z.string()),
    usesAuth: z.optional(z.boolean()),
    createdAt: z.optional(z.iso.datetime({ offset: true }))
});

/**
 * A checkpoint of a journey run (a scanned page along the journey).
 */
export const zCheckpoint = z.object({
    scanId: z.optional(z.string()),
    label: z.optional(z.string()),
    url: z.optional(z.string()),
    status: z.optional(z.string())
});

/**
 * A run of a saved journey.
 */
export const zV1JourneyRunResponse = z.object({
    id: z.string(),
    journeyId: z.optional(z.string()),
    siteId: z.optional(z.string()),
    status: zJobStatus,
    failedStepIndex: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    failureReasonCode: z.optional(z.string()),
    failureReasonText: z.optional(z.string()),
    checkpoints: z.optional(z.array(zCheckpoint)),
    startedAt: z.optional(z.iso.datetime({ offset: true })),
    finishedAt: z.optional(z.iso.datetime({ offset: true })),
    createdAt: z.optional(z.iso.datetime({ offset: true }))
});

/**
 * One scan run in a site's trend.
 */
export const zTrendPoint = z.object({
    scanRunId: z.optional(z.string()),
    finishedAt: z.optional(z.iso.datetime({ offset: true })),
    status: z.optional(z.string()),
    pagesScanned: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    truncated: z.optional(z.boolean()),
    totalViolations: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    bySeverity: z.optional(zV1SeverityCounts),
    addedCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    resolvedCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * Violation-count trend of a site; points are chronological; the trend carries no score.
 */
export const zV1SiteTrendResponse = z.object({
    siteId: z.optional(z.string()),
    standard: z.optional(z.string()),
    points: z.optional(z.array(zTrendPoint))
});

/**
 * A tracked fix (remediation item) of a site.
 */
export const zV1FixResponse = z.object({
    id: z.string(),
    siteId: z.optional(z.string()),
    ruleId: z.optional(z.string()),
    impact: z.optional(z.string()),
    rootCauseKey: z.optional(z.string()),
    componentLabel: z.optional(z.string()),
    status: z.optional(z.string()),
    verifiedScope: z.optional(z.string()),
    verifiedAt: z.optional(z.iso.datetime({ offset: true })),
    verifiedPagesCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    nodesCountAtTracking: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesCountAtTracking: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    verifiable: z.optional(z.boolean())
});

/**
 * A fix verification (targeted automated re-check of a tracked remediation item).
 */
export const zV1FixVerificationResponse = z.object({
    id: z.string(),
    remediationItemId: z.optional(z.string()),
    siteId: z.optional(z.string()),
    status: zJobStatus,
    outcome: z.optional(z.string()),
    source: z.optional(z.string()),
    scopeGranularity: z.optional(z.string()),
    rootCauseKey: z.optional(z.string()),
    pagesRequested: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesScanned: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesFailed: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    nodesFound: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    ruleNodesFound: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pages: z.optional(z.array(zPage)),
    failureReasonCode: z.optional(z.string()),
    startedAt: z.optional(z.iso.datetime({ offset: true })),
    finishedAt: z.optional(z.iso.datetime({ offset: true }))
});

/**
 * Totals of a root-cause analysis.
 */
export const zRootCauseSummary = z.object({
    findingsTotal: z.optional(z.coerce.bigint().check(z.minimum(BigInt('-9223372036854775808'), { error: 'Invalid value: Expected int64 to be >= -9223372036854775808' }), z.maximum(BigInt('9223372036854775807'), { error: 'Invalid value: Expected int64 to be <= 9223372036854775807' }))),
    analyzedFindings: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    clustersTotal: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    clusteredFindings: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesTotal: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

/**
 * The component a root cause was traced to.
 */
export const zRootCauseComponent = z.object({
    label: z.optional(z.string()),
    source: z.optional(z.string()),
    platform: z.optional(z.string())
});

/**
 * A group of findings sharing one root cause.
 */
export const zCluster = z.object({
    key: z.optional(z.string()),
    ruleId: z.optional(z.string()),
    impact: z.optional(z.string()),
    wcagSc: z.optional(z.array(z.string())),
    pattern: z.optional(z.string()),
    selectorSignature: z.optional(z.string()),
    component: z.optional(zRootCauseComponent),
    nodesCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    pagesCount: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    samplePages: z.optional(z.array(z.string())),
    sampleSelectors: z.optional(z.array(z.string())),
    guidance: z.optional(z.string()),
    exampleFix: z.optional(z.string()),
    helpUrl: z.optional(z.string())
});

/**
 * Deterministic root-cause groups of a scan run.
 */
export const zV1RootCauseResponse = z.object({
    scope: z.optional(z.string()),
    status: z.optional(z.string()),
    signatureVersion: z.optional(z.string()),
    summary: z.optional(zRootCauseSummary),
    truncated: z.optional(z.boolean()),
    clusters: z.optional(z.array(zCluster)),
    coverageDisclaimer: z.optional(z.string())
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
export const zProblemDetail = z.object({
    type: z.optional(z.url()),
    title: z.optional(z.string()),
    status: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' }))),
    detail: z.optional(z.string()),
    instance: z.optional(z.string()),
    code: z.optional(z.string()),
    traceId: z.optional(z.uuid()),
    timestamp: z.optional(z.iso.datetime({ offset: true }))
});

/**
 * Body of a webhook delivery. Its shape is not shown in the service's document: an open JSON object.
 *
 */
export const zWebhookEventBody = z.record(z.string(), z.unknown());

/**
 * Resource id (UUID).
 */
export const zId = z.uuid();

export const zCreateScanBody = zV1CreateScanRequest;

export const zGetScanPath = z.object({
    id: z.uuid()
});

export const zListScanViolationsPath = z.object({
    id: z.uuid()
});

export const zCreateScanRunBody = zV1CreateScanRunRequest;

export const zGetScanRunPath = z.object({
    id: z.uuid()
});

export const zListScanRunViolationsPath = z.object({
    id: z.uuid()
});

export const zGetScanRunRootCausesPath = z.object({
    id: z.uuid()
});

export const zListSiteJourneysPath = z.object({
    id: z.uuid()
});

export const zCreateJourneyRunPath = z.object({
    id: z.uuid()
});

export const zGetJourneyRunPath = z.object({
    id: z.uuid()
});

export const zGetSiteTrendPath = z.object({
    id: z.uuid()
});

export const zGetSiteTrendQuery = z.object({
    limit: z.optional(z.int().check(z.minimum(-2147483648, { error: 'Invalid value: Expected int32 to be >= -2147483648' }), z.maximum(2147483647, { error: 'Invalid value: Expected int32 to be <= 2147483647' })))
});

export const zListSiteFixesPath = z.object({
    id: z.uuid()
});

export const zCreateFixVerificationPath = z.object({
    id: z.uuid()
});

export const zGetFixVerificationPath = z.object({
    id: z.uuid()
});

export const zCreateCiCheckBody = zV1CreateCiCheckRequest;

export const zGetCiCheckPath = z.object({
    id: z.uuid()
});

export const zListCiCheckViolationsPath = z.object({
    id: z.uuid()
});

export const zOnScanRunCompletedWebhookRequest = z.object({
    body: zWebhookEventBody,
    path: z.optional(z.never()),
    query: z.optional(z.never()),
    headers: z.object({
        'X-Svc-Event': z.string(),
        'X-Svc-Delivery': z.string(),
        'X-Svc-Timestamp': z.string().check(z.regex(/^[0-9]+$/)),
        'X-Svc-Signature': z.string()
    })
});
