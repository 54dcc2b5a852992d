// SARIF 2.1.0 for code-scanning dashboards (GitHub code scanning, Azure DevOps, SonarQube). Failures only: a
// SARIF result is an alert, and a finding that passes the threshold is not one.
import type { Location, Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { CiViolation } from '../../index.js';
import { classify } from './findings.js';
import { type CiReport, compareText, impactLabel, normalizeImpact, pageLabel, ruleIdOf } from './report.js';

/** `$schema` of the log. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Key of the finding's stable fingerprint in `partialFingerprints` (versioned, as SARIF recommends). */
export const FINGERPRINT_KEY = 'a11yFingerprint/v1';

/** Default `tool.driver.informationUri`: the package's registry page. */
export const DEFAULT_INFORMATION_URI = 'https://www.npmjs.com/package/@svc/a11y-sdk';

/** Options of {@link toSarif}. */
export interface SarifOptions {
  /** Version of the CLI, reported as `tool.driver.version`. */
  toolVersion: string;
  /**
   * Where users read about the tool.
   * @default DEFAULT_INFORMATION_URI
   */
  informationUri?: string;
}

/**
 * SARIF level of an impact: critical and serious are errors, moderate a warning, minor a note; an unknown impact
 * is a warning (not hidden as a note, not promoted to an error).
 * @example sarifLevel('serious') // 'error'
 */
export function sarifLevel(impact: string | undefined): Result.level {
  switch (normalizeImpact(impact)) {
    case 'critical':
    case 'serious':
      return 'error';
    case 'minor':
      return 'note';
    default:
      return 'warning';
  }
}

// Page URLs come from the API as strings; the schema wants RFC 3986. WHATWG serialisation leaves a few characters
// RFC 3986 forbids (`|`, `^`, a stray `%`), so those are percent-encoded; an unparsable value becomes one encoded
// relative segment rather than an invalid log.
function toUri(value: string): string {
  try {
    return new URL(value).href
      .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
      .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));
  }
}

// An absolute URI, or undefined: `helpUri` and `informationUri` must be absolute.
function absoluteUri(value: string | undefined): string | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  return toUri(value);
}

function ruleOf(id: string, findings: CiViolation[]): ReportingDescriptor {
  const wcag = [...new Set(findings.flatMap((v) => v.wcagSc ?? []))].sort(compareText);
  const helpUri = findings.map((v) => absoluteUri(v.helpUrl)).find((u) => u !== undefined);
  return {
    id,
    shortDescription: { text: `Accessibility rule ${id}${wcag.length ? ` (WCAG ${wcag.join(', ')})` : ''}` },
    ...(helpUri ? { helpUri, help: { text: `How to fix: ${helpUri}` } } : {}),
    properties: { tags: [...new Set(['accessibility', ...wcag])] },
  };
}

function locationOf(v: CiViolation): Location | undefined {
  if (!v.url && !v.target) return undefined;
  return {
    ...(v.url ? { physicalLocation: { artifactLocation: { uri: toUri(v.url) } } } : {}),
    ...(v.target ? { logicalLocations: [{ fullyQualifiedName: v.target, kind: 'element' }] } : {}),
  };
}

function resultOf(v: CiViolation, ruleIndex: number): Result {
  const location = locationOf(v);
  const age = v.isNew === true ? ', new' : v.isNew === false ? ', existing' : '';
  return {
    ruleId: ruleIdOf(v),
    ruleIndex,
    level: sarifLevel(v.impact),
    kind: 'fail',
    message: {
      text:
        `${ruleIdOf(v)} (${impactLabel(v.impact)}${age}) at ${v.target || 'an unknown element'} on ${pageLabel(v.url)}` +
        (v.failureSummary ? `: ${v.failureSummary}` : ''),
    },
    ...(location ? { locations: [location] } : {}),
    ...(v.fingerprint ? { partialFingerprints: { [FINGERPRINT_KEY]: v.fingerprint } } : {}),
    ...(v.isNew === undefined ? {} : { baselineState: v.isNew ? 'new' : 'unchanged' }),
    properties: {
      impact: impactLabel(v.impact),
      ...(v.isNew === undefined ? {} : { isNew: v.isNew }),
      wcagSc: v.wcagSc ?? [],
      ...(v.helpUrl ? { helpUrl: v.helpUrl } : {}),
    },
  };
}

/**
 * SARIF 2.1.0 log of a CI check, as an object (the caller serialises it): one run of the `svc-a11y` driver whose
 * results are the findings that break the threshold, each with its level from the impact, the page URL as artifact,
 * the selector as a logical location and the API's fingerprint in `partialFingerprints`. Pages that could not be
 * checked, and a check that did not complete, are tool execution notifications.
 * @example await writeFile('a11y.sarif', JSON.stringify(toSarif({ check, violations }, { toolVersion: '0.1.0' }), null, 2));
 */
export function toSarif(report: CiReport, options: SarifOptions): Log {
  const { check } = report;
  const { failOn, failures, failedPages } = classify(report);

  const ruleIds = [...new Set(failures.map(ruleIdOf))].sort(compareText);
  const rules = ruleIds.map((id) => ruleOf(id, failures.filter((v) => ruleIdOf(v) === id)));
  const results = failures.map((v) => resultOf(v, ruleIds.indexOf(ruleIdOf(v))));

  const notifications: Notification[] = failedPages.map((page) => ({
    level: 'error',
    message: { text: `Page could not be checked (${page.status}): ${pageLabel(page.url)}` },
    ...(page.url ? { locations: [{ physicalLocation: { artifactLocation: { uri: toUri(page.url) } } }] } : {}),
  }));
  if (check.status !== 'COMPLETED') {
    const reason = check.failureReason ? `: ${check.failureReason}` : '';
    notifications.unshift({ level: 'error', message: { text: `Check did not complete (${check.status})${reason}` } });
  }

  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'svc-a11y',
            version: options.toolVersion,
            informationUri: absoluteUri(options.informationUri) ?? DEFAULT_INFORMATION_URI,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: check.status === 'COMPLETED' && failedPages.length === 0,
            ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        results,
        properties: {
          checkId: check.id,
          status: check.status,
          ...(check.verdict ? { verdict: check.verdict } : {}),
          failOn,
          ...(check.appUrl ? { appUrl: check.appUrl } : {}),
          ...(check.baselineMissing === undefined ? {} : { baselineMissing: check.baselineMissing }),
          ...(check.baselineCheckId ? { baselineCheckId: check.baselineCheckId } : {}),
        },
      },
    ],
  };
}
