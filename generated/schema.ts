// generated — do not edit. Source: openapi.yaml; regenerate with `npm run generate`.
/* eslint-disable */
export interface paths {
    "/api/v1/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's sites
         * @description Lists the sites registered in the organization that owns the key.
         *     Scope `sites:read`; plan feature `API_ACCESS`. Paging: not shown.
         */
        get: operations["listSites"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a single-page scan
         * @description Queues an automated check of one page. The URL must belong to a site already registered in the
         *     organization (otherwise 404 `SITE_NOT_FOUND`). Answers `202 Accepted` with a `Location` header naming
         *     the scan to poll. Scope `scans:write`.
         */
        post: operations["createScan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scan
         * @description Status, counters and failure reason of a single-page scan. `QUEUED` and `RUNNING` are not results;
         *     any other status is terminal. Scope `scans:read`.
         */
        get: operations["getScan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scans/{id}/violations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a scan's findings
         * @description The scan's own flat finding records. Read only after the scan is terminal. Scope `scans:read`.
         *     Paging: not shown.
         */
        get: operations["listScanViolations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scan-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a full-site scan run
         * @description Queues a crawl of a registered site. Answers `202 Accepted` with a `Location` header naming the scan
         *     run to poll. Scope `scans:write`.
         */
        post: operations["createScanRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scan-runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scan run
         * @description Status, crawl progress (`pagesDone` of `pagesTotal`), counters and failure reason of a full-site run.
         *     `QUEUED` and `RUNNING` are not results; any other status is terminal. Scope `scans:read`.
         */
        get: operations["getScanRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scan-runs/{id}/violations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a scan run's findings
         * @description Run-level findings, deduplicated by rule. Read only after the run is terminal. Scope `scans:read`.
         *     Paging: not shown.
         */
        get: operations["listScanRunViolations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scan-runs/{id}/root-causes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scan run's root-cause groups
         * @description Deterministic groups of a run's findings by shared root cause (rule, pattern, selector signature,
         *     component), with an explicit statement of automation coverage. Scope `scans:read`.
         */
        get: operations["getScanRunRootCauses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sites/{id}/journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a site's saved journeys
         * @description The journeys saved for a site (steps and credentials stay on the server).
         *     Scope `sites:read`; plan feature `API_ACCESS`. Paging: not shown.
         */
        get: operations["listSiteJourneys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journeys/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run of a saved journey
         * @description Queues a run of the journey's saved steps. No request body: credentials come only from the site's
         *     saved auth profile, never from the request. Answers `202 Accepted` with the journey run and a
         *     `Location` header. Scope `scans:write`; the journey's own `JOURNEYS` plan gate applies, and
         *     `AUTHENTICATED_SCANS` too when the journey uses auth.
         */
        post: operations["createJourneyRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journey-runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a journey run
         * @description Status, checkpoints and failure details of a journey run. `QUEUED` and `RUNNING` are not results;
         *     any other status is terminal. Scope `scans:read`.
         */
        get: operations["getJourneyRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sites/{id}/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a site's violation-count trend
         * @description Chronological points of the site's scan runs (the trend carries no score).
         *     Scope `scans:read`; plan feature `TREND_HISTORY` (Pro and above).
         */
        get: operations["getSiteTrend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sites/{id}/fixes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a site's tracked fixes
         * @description Remediation items tracked for the site. Scope `sites:read`; plan feature `API_ACCESS`.
         *     The problem codes of this endpoint's errors are not shown in the service's document. Paging: not shown.
         */
        get: operations["listSiteFixes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/remediation-items/{id}/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a fix verification
         * @description Queues a targeted automated re-check of a tracked remediation item. No request body. Answers
         *     `202 Accepted` with a `Location` header naming the fix verification to poll.
         *     Scope `scans:write`; plan features `API_ACCESS` and remediation tracking.
         *     The problem codes of this endpoint's errors are not shown in the service's document.
         */
        post: operations["createFixVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fix-verifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a fix verification
         * @description Status, outcome and per-page results of a fix verification. `QUEUED` and `RUNNING` are not results;
         *     any other status is terminal. Scope `scans:read`; plan feature `API_ACCESS`.
         *     The problem codes of this endpoint's errors are not shown in the service's document.
         */
        get: operations["getFixVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ci/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a CI check
         * @description Queues a bounded check of one to twenty URLs (the Free plan accepts up to 5), all on the same verified
         *     site (an unverified site gives 409 `DOMAIN_NOT_VERIFIED`). The completed check carries a verdict from
         *     `failOn` and a comparison with the saved baseline. Answers `202 Accepted` with a `Location` header
         *     naming the check to poll. Scope `ci:check` (with its own plan quota).
         */
        post: operations["createCiCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ci/checks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a CI check
         * @description Progress, baseline delta and verdict of a CI check. `QUEUED` and `RUNNING` are not results; a check
         *     that failed carries `failureReason`. Scope `ci:check`.
         */
        get: operations["getCiCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ci/checks/{id}/violations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a CI check's findings
         * @description URL-level findings with a stable `fingerprint` and the `isNew` baseline marker. Read only after the
         *     check is terminal. Scope `ci:check`. Paging: not shown.
         */
        get: operations["listCiCheckViolations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "scan_run.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A scan run reached a terminal outcome
         * @description Signed outbound delivery to a subscribed HTTPS endpoint. Every delivery is JSON, has a stable delivery
         *     id and is retried automatically.
         *
         *     Signature rule: the receiver computes HMAC-SHA256 with the signing secret over the string
         *     `X-Svc-Timestamp + "." + <the unchanged raw request body>` and compares it with the value after `v1=`
         *     in `X-Svc-Signature`. The receiver rejects old timestamps to reduce replay risk.
         *
         *     Not shown in the service's document: the body shape of each event, event kinds other than
         *     `scan_run.completed`, the retry schedule and maximum attempts, the accepted age of a timestamp, where
         *     the signing secret is issued, and the digest encoding.
         */
        post: operations["onScanRunCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A site registered in the organization. */
        V1SiteResponse: {
            /** Format: uuid */
            id: string;
            name?: string;
            rootUrl?: string;
            normalizedHost?: string;
            /** @description Whether the site's domain is verified (CI checks need a verified site). */
            verified?: boolean;
        };
        /** @description Finding counts by impact. */
        V1SeverityCounts: {
            /** Format: int32 */
            critical?: number;
            /** Format: int32 */
            serious?: number;
            /** Format: int32 */
            moderate?: number;
            /** Format: int32 */
            minor?: number;
        };
        /** @description Terminal failure reason of a scan or scan run. */
        FailureReason: {
            code?: string;
            reason?: string;
        };
        /** @description A single-page scan. */
        V1ScanResponse: {
            id: string;
            siteId?: string;
            status: components["schemas"]["JobStatus"];
            requestedUrl?: string;
            counts?: components["schemas"]["V1SeverityCounts"];
            /** Format: int32 */
            totalViolations?: number;
            failureReason?: components["schemas"]["FailureReason"];
        };
        /** @description A full-site scan run (crawl). */
        V1ScanRunResponse: {
            id: string;
            siteId?: string;
            status: components["schemas"]["JobStatus"];
            /** Format: int32 */
            pagesTotal?: number;
            /** Format: int32 */
            pagesDone?: number;
            counts?: components["schemas"]["V1SeverityCounts"];
            /** Format: int32 */
            totalViolations?: number;
            failureReason?: components["schemas"]["FailureReason"];
        };
        /** @description Accepted response of a scan or scan run creation. */
        V1ScanAcceptedResponse: {
            id: string;
            status: components["schemas"]["JobStatus"];
        };
        /** @description Accepted response of a fix verification creation. */
        V1FixVerificationAcceptedResponse: {
            id: string;
            status: components["schemas"]["JobStatus"];
        };
        /**
         * @description Status of an asynchronous job (scan, scan run, journey run, fix verification). The allowed values are
         *     not shown in the service's document, so this is an open string. `QUEUED` and `RUNNING` are not
         *     results; any other status is terminal.
         * @example QUEUED
         * @example RUNNING
         */
        JobStatus: string;
        /**
         * @description Flat finding record. A scan returns its own findings; a scan run returns run-level findings
         *     deduplicated by rule.
         */
        V1ViolationResponse: {
            ruleId?: string;
            /** @description Impact of the finding. Allowed values are not shown in the service's document. */
            impact?: string;
            /** @description WCAG success criteria. */
            wcagSc?: string[];
            url?: string;
            helpUrl?: string;
            /** @description Element selector. */
            target?: string;
            htmlSnippet?: string;
            failureSummary?: string;
        };
        /** @description URL-level finding of a CI check, with a stable fingerprint and a baseline marker. */
        V1CiViolationResponse: {
            ruleId?: string;
            /** @description Impact of the finding. Allowed values are not shown in the service's document. */
            impact?: string;
            /** @description WCAG success criteria. */
            wcagSc?: string[];
            url?: string;
            helpUrl?: string;
            /** @description Element selector. */
            target?: string;
            failureSummary?: string;
            /** @description Stable fingerprint of the finding. */
            fingerprint?: string;
            /** @description True when the finding is not present in the baseline. */
            isNew?: boolean;
        };
        /** @description Page entry of a CI check or fix verification. */
        Page: {
            url?: string;
            /** @enum {string} */
            status?: "QUEUED" | "RUNNING" | "DONE" | "TIMEOUT" | "UNREACHABLE" | "ERROR";
            counts?: components["schemas"]["V1SeverityCounts"];
        };
        /**
         * @description Minimum impact that makes a CI check fail.
         * @enum {string}
         */
        FailOn: "NEW_CRITICAL" | "ANY_CRITICAL" | "SERIOUS_OR_WORSE" | "NONE";
        /** @description A CI check with its progress, baseline delta and verdict. */
        V1CiCheckResponse: {
            /** Format: uuid */
            id: string;
            /**
             * @description `QUEUED` and `RUNNING` are not results; `COMPLETED` and `FAILED` are terminal.
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED";
            /** @enum {string} */
            verdict?: "PASS" | "FAIL";
            failOn?: components["schemas"]["FailOn"];
            baselineMissing?: boolean;
            counts?: components["schemas"]["V1SeverityCounts"];
            newCounts?: components["schemas"]["V1SeverityCounts"];
            /** Format: int32 */
            fixedCount?: number;
            /** Format: int32 */
            unchangedCount?: number;
            /** Format: uuid */
            baselineCheckId?: string;
            pages?: components["schemas"]["Page"][];
            appUrl?: string;
            /** @description Why a check that failed could not complete. */
            failureReason?: string;
        };
        /** @description CI check creation request. */
        V1CreateCiCheckRequest: {
            /** @description One to twenty absolute URLs, all on the same verified site (the Free plan accepts up to 5). */
            urls: components["schemas"]["PageUrl"][];
            failOn?: components["schemas"]["FailOn"];
            /** @description When true, the completed check is saved as the future comparison baseline. */
            setBaseline?: boolean;
            /** @description Caller metadata such as repository, branch, commit or pull-request identifiers. */
            context?: {
                [key: string]: unknown;
            };
        };
        /** @description Accepted response of a CI check creation. */
        V1CiCheckAcceptedResponse: {
            /** Format: uuid */
            id: string;
        };
        /** @description Single-page scan request. */
        V1CreateScanRequest: {
            url: components["schemas"]["PageUrl"];
        };
        /**
         * @description Absolute HTTP(S) page URL on a site registered in the organization; at most 2048 characters
         *     (`url` of a single-page scan and each entry of a CI check's `urls`).
         * @example https://shop.example.com/checkout
         */
        PageUrl: string;
        /** @description Scan run request. */
        V1CreateScanRunRequest: {
            /**
             * Format: uuid
             * @description A site id as returned by the list of sites.
             */
            siteId: string;
        };
        /** @description A saved journey of a site. */
        V1JourneyResponse: {
            id: string;
            siteId?: string;
            name?: string;
            usesAuth?: boolean;
            /** Format: date-time */
            createdAt?: string;
        };
        /** @description A checkpoint of a journey run (a scanned page along the journey). */
        Checkpoint: {
            scanId?: string;
            label?: string;
            url?: string;
            /** @description Allowed values are not shown in the service's document. */
            status?: string;
        };
        /** @description A run of a saved journey. */
        V1JourneyRunResponse: {
            id: string;
            journeyId?: string;
            siteId?: string;
            status: components["schemas"]["JobStatus"];
            /** Format: int32 */
            failedStepIndex?: number;
            failureReasonCode?: string;
            failureReasonText?: string;
            checkpoints?: components["schemas"]["Checkpoint"][];
            /** Format: date-time */
            startedAt?: string;
            /** Format: date-time */
            finishedAt?: string;
            /** Format: date-time */
            createdAt?: string;
        };
        /** @description One scan run in a site's trend. */
        TrendPoint: {
            scanRunId?: string;
            /** Format: date-time */
            finishedAt?: string;
            /** @description Allowed values are not shown in the service's document. */
            status?: string;
            /** Format: int32 */
            pagesScanned?: number;
            truncated?: boolean;
            /** Format: int32 */
            totalViolations?: number;
            bySeverity?: components["schemas"]["V1SeverityCounts"];
            /** Format: int32 */
            addedCount?: number;
            /** Format: int32 */
            resolvedCount?: number;
        };
        /** @description Violation-count trend of a site; points are chronological; the trend carries no score. */
        V1SiteTrendResponse: {
            siteId?: string;
            standard?: string;
            points?: components["schemas"]["TrendPoint"][];
        };
        /** @description A tracked fix (remediation item) of a site. */
        V1FixResponse: {
            id: string;
            siteId?: string;
            ruleId?: string;
            /** @description Allowed values are not shown in the service's document. */
            impact?: string;
            rootCauseKey?: string;
            componentLabel?: string;
            /** @description Allowed values are not shown in the service's document. */
            status?: string;
            /** @description Allowed values are not shown in the service's document. */
            verifiedScope?: string;
            /** Format: date-time */
            verifiedAt?: string;
            /** Format: int32 */
            verifiedPagesCount?: number;
            /** Format: int32 */
            nodesCountAtTracking?: number;
            /** Format: int32 */
            pagesCountAtTracking?: number;
            verifiable?: boolean;
        };
        /** @description A fix verification (targeted automated re-check of a tracked remediation item). */
        V1FixVerificationResponse: {
            id: string;
            remediationItemId?: string;
            siteId?: string;
            status: components["schemas"]["JobStatus"];
            /** @description Allowed values are not shown in the service's document. */
            outcome?: string;
            /** @description Allowed values are not shown in the service's document. */
            source?: string;
            /** @description Allowed values are not shown in the service's document. */
            scopeGranularity?: string;
            rootCauseKey?: string;
            /** Format: int32 */
            pagesRequested?: number;
            /** Format: int32 */
            pagesScanned?: number;
            /** Format: int32 */
            pagesFailed?: number;
            /** Format: int32 */
            nodesFound?: number;
            /** Format: int32 */
            ruleNodesFound?: number;
            pages?: components["schemas"]["Page"][];
            failureReasonCode?: string;
            /** Format: date-time */
            startedAt?: string;
            /** Format: date-time */
            finishedAt?: string;
        };
        /** @description Totals of a root-cause analysis. */
        RootCauseSummary: {
            /** Format: int64 */
            findingsTotal?: number;
            /** Format: int32 */
            analyzedFindings?: number;
            /** Format: int32 */
            clustersTotal?: number;
            /** Format: int32 */
            clusteredFindings?: number;
            /** Format: int32 */
            pagesTotal?: number;
        };
        /** @description The component a root cause was traced to. */
        RootCauseComponent: {
            label?: string;
            source?: string;
            platform?: string;
        };
        /** @description A group of findings sharing one root cause. */
        Cluster: {
            key?: string;
            ruleId?: string;
            /** @description Allowed values are not shown in the service's document. */
            impact?: string;
            wcagSc?: string[];
            pattern?: string;
            selectorSignature?: string;
            component?: components["schemas"]["RootCauseComponent"];
            /** Format: int32 */
            nodesCount?: number;
            /** Format: int32 */
            pagesCount?: number;
            samplePages?: string[];
            sampleSelectors?: string[];
            guidance?: string;
            exampleFix?: string;
            helpUrl?: string;
        };
        /** @description Deterministic root-cause groups of a scan run. */
        V1RootCauseResponse: {
            /** @description Allowed values are not shown in the service's document. */
            scope?: string;
            /** @description Allowed values are not shown in the service's document. */
            status?: string;
            /** @description Allowed values are not shown in the service's document. */
            signatureVersion?: string;
            summary?: components["schemas"]["RootCauseSummary"];
            truncated?: boolean;
            clusters?: components["schemas"]["Cluster"][];
            /** @description Explicit statement of automation coverage. */
            coverageDisclaimer?: string;
        };
        /**
         * @description RFC 7807 problem (`application/problem+json`). Clients branch on `code`, never on `detail`.
         *     Known codes: API_KEY_INVALID (401); API_KEY_SCOPE_MISSING, FEATURE_NOT_IN_PLAN (403);
         *     SITE_NOT_FOUND, SCAN_NOT_FOUND, JOURNEY_NOT_FOUND, CI_CHECK_NOT_FOUND (404, pattern *_NOT_FOUND);
         *     SCAN_ALREADY_RUNNING, JOURNEY_ALREADY_RUNNING (pattern *_ALREADY_RUNNING), DOMAIN_NOT_VERIFIED (409);
         *     VALIDATION_FAILED, INVALID_URL, SITE_AUTH_NOT_CONFIGURED (422); RATE_LIMITED (429).
         *     Field-level validation detail within VALIDATION_FAILED is not shown in the service's document.
         */
        ProblemDetail: {
            /**
             * Format: uri
             * @description Problem type.
             */
            type?: string;
            /** @description Short title. */
            title?: string;
            /**
             * Format: int32
             * @description HTTP status.
             */
            status?: number;
            /** @description Human-readable context; may change, never branched on. */
            detail?: string;
            /**
             * Format: uri-reference
             * @description The request path.
             */
            instance?: string;
            /** @description Stable machine-readable code; clients branch on this. Open to codes added later. */
            code?: string;
            /**
             * Format: uuid
             * @description Correlation id to keep for support.
             */
            traceId?: string;
            /**
             * Format: date-time
             * @description UTC time at which the problem response was produced.
             */
            timestamp?: string;
        };
        /** @description Body of a webhook delivery. Its shape is not shown in the service's document: an open JSON object. */
        WebhookEventBody: {
            [key: string]: unknown;
        };
    };
    responses: {
        /** @description Missing or invalid API key. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description The key lacks the required scope, or the plan lacks the required feature. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description More than the key's request rate (120 requests per minute by default). */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description No site of the organization matches (for a URL, no registered site contains it). */
        SiteNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description No scan or scan run of the organization has this id. */
        ScanNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Not found; the code is one of the `*_NOT_FOUND` codes (which one is not shown in the service's document). */
        RootCauseNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description No journey of the organization has this id. */
        JourneyNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description No CI check of the organization has this id. */
        CiCheckNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description A scan of this target is already running. */
        ScanAlreadyRunning: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description A run of this journey is already in progress. */
        JourneyAlreadyRunning: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description The URLs belong to a site whose domain is not verified. */
        DomainNotVerified: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description The request body breaks the rules (an invalid URL, or another validation failure). */
        InvalidUrl: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description The journey uses auth and the site has no saved auth profile. */
        SiteAuthNotConfigured: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Not found. The problem `code` of this endpoint is not shown in the service's document. */
        NotFoundCodeNotShown: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Conflict. The problem `code` of this endpoint is not shown in the service's document. */
        ConflictCodeNotShown: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Unprocessable. The problem `code` of this endpoint is not shown in the service's document. */
        UnprocessableCodeNotShown: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
    };
    parameters: {
        /**
         * @description Resource id (UUID).
         * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
         */
        Id: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Relative URL of the queued scan to poll.
         * @example /api/v1/scans/0ef18b93-6a03-41cf-9a89-1ea15d601e90
         */
        ScanLocation: string;
        /**
         * @description Relative URL of the queued scan run to poll.
         * @example /api/v1/scan-runs/7d9f4275-7864-41eb-b46d-16ce08028768
         */
        ScanRunLocation: string;
        /**
         * @description Relative URL of the queued journey run to poll.
         * @example /api/v1/journey-runs/16e1a4df-ffca-4894-a276-d5f6b9202d78
         */
        JourneyRunLocation: string;
        /**
         * @description Relative URL of the queued fix verification to poll.
         * @example /api/v1/fix-verifications/17b35e73-4885-4c82-9e6d-7f3a15986db6
         */
        FixVerificationLocation: string;
        /**
         * @description Relative URL of the queued CI check to poll.
         * @example /api/v1/ci/checks/396154c7-55f5-43ad-bac0-2dd077d2efcb
         */
        CiCheckLocation: string;
        /**
         * @description Seconds to wait before retrying with the same credential.
         * @example 30
         */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSites: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of sites. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1SiteResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
        };
    };
    createScan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["V1CreateScanRequest"];
            };
        };
        responses: {
            /** @description The scan is queued; poll the resource named by `Location`. */
            202: {
                headers: {
                    Location: components["headers"]["ScanLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ScanAcceptedResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["SiteNotFound"];
            409: components["responses"]["ScanAlreadyRunning"];
            422: components["responses"]["InvalidUrl"];
            429: components["responses"]["RateLimited"];
        };
    };
    getScan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The scan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ScanResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ScanNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listScanViolations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of violations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ViolationResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ScanNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    createScanRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["V1CreateScanRunRequest"];
            };
        };
        responses: {
            /** @description The scan run is queued; poll the resource named by `Location`. */
            202: {
                headers: {
                    Location: components["headers"]["ScanRunLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ScanAcceptedResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["SiteNotFound"];
            409: components["responses"]["ScanAlreadyRunning"];
            429: components["responses"]["RateLimited"];
        };
    };
    getScanRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The scan run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ScanRunResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ScanNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listScanRunViolations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of violations, one per rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1ViolationResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ScanNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    getScanRunRootCauses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Root-cause groups of the run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1RootCauseResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["RootCauseNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listSiteJourneys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of journeys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1JourneyResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["SiteNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    createJourneyRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The journey run is queued; poll the resource named by `Location`. */
            202: {
                headers: {
                    Location: components["headers"]["JourneyRunLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1JourneyRunResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["JourneyNotFound"];
            409: components["responses"]["JourneyAlreadyRunning"];
            422: components["responses"]["SiteAuthNotConfigured"];
            429: components["responses"]["RateLimited"];
        };
    };
    getJourneyRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The journey run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1JourneyRunResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
        };
    };
    getSiteTrend: {
        parameters: {
            query?: {
                /**
                 * @description How many points to return. Default value and bounds are not shown in the service's document.
                 * @example 10
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site's trend. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1SiteTrendResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["SiteNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listSiteFixes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of tracked fixes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1FixResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFoundCodeNotShown"];
            409: components["responses"]["ConflictCodeNotShown"];
            422: components["responses"]["UnprocessableCodeNotShown"];
            429: components["responses"]["RateLimited"];
        };
    };
    createFixVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fix verification is queued; poll the resource named by `Location`. */
            202: {
                headers: {
                    Location: components["headers"]["FixVerificationLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1FixVerificationAcceptedResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFoundCodeNotShown"];
            409: components["responses"]["ConflictCodeNotShown"];
            422: components["responses"]["UnprocessableCodeNotShown"];
            429: components["responses"]["RateLimited"];
        };
    };
    getFixVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fix verification. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1FixVerificationResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFoundCodeNotShown"];
            409: components["responses"]["ConflictCodeNotShown"];
            422: components["responses"]["UnprocessableCodeNotShown"];
            429: components["responses"]["RateLimited"];
        };
    };
    createCiCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["V1CreateCiCheckRequest"];
            };
        };
        responses: {
            /** @description The CI check is queued; poll the resource named by `Location`. */
            202: {
                headers: {
                    Location: components["headers"]["CiCheckLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1CiCheckAcceptedResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["SiteNotFound"];
            409: components["responses"]["DomainNotVerified"];
            422: components["responses"]["InvalidUrl"];
            429: components["responses"]["RateLimited"];
        };
    };
    getCiCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CI check. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1CiCheckResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CiCheckNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    listCiCheckViolations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Resource id (UUID).
                 * @example 3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Array of CI violations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["V1CiViolationResponse"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["CiCheckNotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    onScanRunCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Event kind.
                 * @example scan_run.completed
                 */
                "X-Svc-Event": string;
                /**
                 * @description Stable delivery id (the same on every retry of one delivery).
                 * @example cf94ee21-cddc-4544-b08f-510865b77656
                 */
                "X-Svc-Delivery": string;
                /**
                 * @description Delivery timestamp (numeric).
                 * @example 1763892000
                 */
                "X-Svc-Timestamp": string;
                /**
                 * @description `v1=<hmac-sha256>`; the digest encoding is not shown in the service's document.
                 * @example v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
                 */
                "X-Svc-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event body. Its shape is not shown in the service's document, so it is an open JSON object. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEventBody"];
            };
        };
        responses: {
            /** @description Any 2xx answer acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The receiver rejected the delivery (for example a bad signature or an old timestamp). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
