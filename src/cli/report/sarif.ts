// SARIF 2.1.0 for code-scanning dashboards (GitHub code scanning, Azure DevOps, SonarQube). Failures only: a
// SARIF result is an alert, and a finding that passes the threshold is not one. A failure a reviewed suppression
// accepts stays an alert, with `suppressions` (kind external, the reason as justification), so dashboards show
// it as dismissed rather than forget it. Checked in the tests with
// Microsoft's SARIF validator and GitHub's ingestion rules (`Sarif.Multitool validate --rule-kind "Sarif;Gh"`).
import { checkedOnRecheck, pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { Location, Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { CiViolation } from '../../index.js';
import type { Finding, PreparedReport } from '../verdict/prepare.js';
import { batchOfFinding } from '../verdict/aggregate.js';
import { mdCell } from './markdown.js';
import type { RouteTable } from '../routes/index.js';
import {
  checkSourceMap,
  hashOf,
  physicalLocationOf,
  type SourceMapEntry,
  type SourceLocator,
  sourceLocator,
  wellFormedText,
} from '../pages/source-location.js';

export { checkSourceMap, parseSourceMap, SOURCE_ROOT, UNKNOWN_PAGE_URI } from '../pages/source-location.js';
export type { SourceMapEntry } from '../pages/source-location.js';
import { compareText, impactLabel, normalizeImpact, pageLabel, ruleIdOf } from '../verdict/fields.js';
import { parseUrl } from '../io/parse-url.js';

/** `$schema` of the log. */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Key of the finding's stable fingerprint in `partialFingerprints` (versioned, as SARIF recommends). */
export const FINGERPRINT_KEY = 'a11yFingerprint/v1';

/** Default `tool.driver.informationUri`: the package's registry page. */
const DEFAULT_INFORMATION_URI = 'https://www.npmjs.com/package/@svc/a11y-sdk';

/** Most results GitHub code scanning accepts in one run: it rejects the whole file above this. */
export const MAX_SARIF_RESULTS = 25_000;

/** Options of {@link toSarif}. */
export interface SarifOptions {
  /** Version of the CLI, reported as `tool.driver.version`. */
  toolVersion: string;
  /**
   * Where users read about the tool.
   * @default DEFAULT_INFORMATION_URI
   */
  informationUri?: string;
  /**
   * Source files that render pages; the longest matching prefix wins, and of two equal prefixes the later entry
   * (so `[...fromConfig, ...fromFlags]` lets flags win). Unmapped pages are located by host and path. Checked as
   * {@link checkSourceMap} does: an invalid entry throws.
   * @example [{ prefix: '/checkout', file: 'src/pages/checkout.tsx' }]
   */
  sourceMap?: readonly SourceMapEntry[];
  /**
   * The route table of `--source-map auto`: a page no `sourceMap` entry covers is located on the route file that
   * renders it (its route pattern in `properties.route`); an unmatched page keeps its host-and-path location.
   * @default undefined (no inference)
   */
  routes?: RouteTable | undefined;
  /**
   * Most results in the log; the rest (last in report order: existing after new, least severe last) are counted
   * in a warning notification and in `properties.omittedResults`.
   * @default MAX_SARIF_RESULTS
   */
  maxResults?: number;
  /**
   * The run's category (`automationDetails.id`, as `category/`): GitHub code scanning keeps one analysis per tool and
   * category, and refuses an upload holding several runs of one tool in one category, so runs uploaded together (the
   * checks of a matrix job) each need their own.
   * @example 'a11y/shop/checkout'
   */
  category?: string | undefined;
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

// GitHub's `problem.severity` of a rule (error | warning | recommendation) follows the levels above.
const PROBLEM_SEVERITY = { error: 'error', warning: 'warning', note: 'recommendation' } as const;

// GitHub limits (docs: "SARIF support for code scanning"): descriptions 1024 characters, 20 tags per rule of which
// 10 are shown. Messages have no documented limit; 4000 characters keep a huge API string from bloating the file
// towards GitHub's 10 MB (gzip) upload limit. Path segments are clipped like file names (with a hash, so they stay
// unique: ../pages/source-location.ts).
const MAX_DESCRIPTION_CHARS = 1024;
const MAX_MESSAGE_CHARS = 4000;
const MAX_TAGS = 10;
function clip(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : value;
}

// Display text from API data: controls other than line breaks and tabs, and bidirectional overrides (which reorder
// what the reader sees), become U+FFFD; `](` is broken up because SARIF §3.11.6 reads `[text](target)` in a
// plain-text message as an embedded link, which GitHub renders: API data must not add links to an alert.
function displayText(value: string, max: number, oneLine = false): string {
  const lines = value.replace(/\r\n?/g, '\n');
  const text = (oneLine ? lines.replace(/[\n\t]/g, ' ') : lines)
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, '\uFFFD')
    .replace(/\]\(/g, '] (');
  return clip(text, max);
}

// Page URLs come from the API as strings; the schema wants RFC 3986. WHATWG serialisation leaves a few characters
// RFC 3986 forbids (`|`, `^`, a stray `%`), so those are percent-encoded.
function toUri(value: string): string {
  return new URL(value).href
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
    .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
}

// A link for `helpUri` and `informationUri`, or undefined: absolute http(s) only (never `javascript:` from API data)
// and at most 2048 characters, the API's own URL limit (a 100 kB one made the validator drop every finding).
function absoluteUri(value: string | undefined): string | undefined {
  if (!value || value.length > 2048 || !/^https?:$/.test(parseUrl(value)?.protocol ?? '')) return undefined;
  return toUri(value);
}

function ruleOf(id: string, findings: CiViolation[]): ReportingDescriptor {
  const wcag = [...new Set(findings.flatMap((v) => v.wcagSc ?? []).map((sc) => displayText(sc, 40, true).trim()))]
    .filter(Boolean)
    .sort(compareText);
  const helpUri = findings.map((v) => absoluteUri(v.helpUrl)).find((u) => u !== undefined);
  const name = displayText(id, 200, true);
  const criteria = wcag.length ? `WCAG ${wcag.join(', ')}` : '';
  const level =
    (['error', 'warning', 'note'] as const).find((l) => findings.some((v) => sarifLevel(v.impact) === l)) ?? 'warning';
  const todo =
    'Open the page named in the alert, find the element by its CSS selector and apply the fix the message lists.';
  return {
    id,
    shortDescription: {
      text: clip(`Accessibility rule ${name}${criteria ? ` (${criteria})` : ''}`, MAX_DESCRIPTION_CHARS),
    },
    fullDescription: {
      text: clip(
        `Rendered pages break the accessibility rule ${name}${criteria ? `, which checks ${criteria}` : ''}. Each alert names ` +
          'the page URL and the element (CSS selector); its file is the page’s host and path, or the source file mapped to the page.',
        MAX_DESCRIPTION_CHARS,
      ),
    },
    ...(helpUri ? { helpUri } : {}),
    help: {
      text: `${helpUri ? `How to fix: ${helpUri}\n\n` : ''}${todo}${criteria ? `\n\nCriteria: ${criteria}.` : ''}`,
      markdown: `**${mdCell(name)}**${criteria ? ` (${mdCell(criteria)})` : ''}\n\n${helpUri ? `[How to fix](<${helpUri}>)\n\n` : ''}${todo}`,
    },
    // No `precision` (the API does not say how often a rule is right) and no `security-severity` (these are not
    // security findings; GitHub would list them as such).
    properties: {
      tags: [...new Set(['accessibility', ...wcag])].slice(0, MAX_TAGS),
      'problem.severity': PROBLEM_SEVERITY[level],
    },
  };
}

function locationOf(v: CiViolation, locate: SourceLocator): Location {
  return {
    physicalLocation: physicalLocationOf(v.url, locate),
    ...(v.target ? { logicalLocations: [{ fullyQualifiedName: v.target, kind: 'element' }] } : {}),
  };
}

// GitHub matches alerts across runs by `primaryLocationLineHash` only; without one its upload action hashes the
// region's line (line 1 of a mapped file, the same for every alert in it). So the API's fingerprint also fills that
// key, hashed into the action's own `hex:occurrence` shape; neither value depends on the location.
function fingerprintsOf(fingerprint: string): Record<string, string> {
  return { [FINGERPRINT_KEY]: fingerprint, primaryLocationLineHash: `${hashOf(fingerprint, 16)}:1` };
}

function resultOf(finding: Finding, ruleIndex: number, locate: SourceLocator, batch: string | undefined): Result {
  const v = finding.violation;
  const age = v.isNew === true ? ', new' : v.isNew === false ? ', existing' : '';
  const route = locate(v.url)?.route;
  const text =
    `${ruleIdOf(v)} (${impactLabel(v.impact)}${age}) at ${v.target || 'an unknown element'} on ${pageLabel(v.url)}${checkpointText(v)}` +
    (v.failureSummary ? `: ${v.failureSummary}` : '');
  return {
    ruleId: ruleIdOf(v),
    ruleIndex,
    level: sarifLevel(v.impact),
    kind: 'fail',
    message: { text: displayText(text, MAX_MESSAGE_CHARS) },
    locations: [locationOf(v, locate)],
    ...(v.fingerprint ? { partialFingerprints: fingerprintsOf(v.fingerprint) } : {}),
    ...(v.isNew === undefined ? {} : { baselineState: v.isNew ? 'new' : 'unchanged' }),
    // A reviewed suppression (a file outside the code: SARIF's `external` kind), its reason as the justification.
    ...(finding.suppression
      ? {
          suppressions: [
            {
              kind: 'external',
              status: 'accepted',
              justification: displayText(
                `${finding.suppression.reason} (until ${finding.suppression.expires})`,
                MAX_MESSAGE_CHARS,
              ),
            },
          ],
        }
      : {}),
    properties: {
      impact: impactLabel(v.impact),
      ...(v.isNew === undefined ? {} : { isNew: v.isNew }),
      wcagSc: v.wcagSc ?? [],
      ...(v.url ? { pageUrl: v.url } : {}),
      ...(route ? { route } : {}),
      ...(v.helpUrl ? { helpUrl: v.helpUrl } : {}),
      ...(batch ? { batch } : {}),
    },
  };
}

// Every string of the log, API data in `properties` and logical locations included, as well-formed UTF-16.
function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return wellFormedText(value) as T;
  if (Array.isArray(value)) return value.map(wellFormed) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)])) as T;
  }
  return value;
}

/**
 * SARIF 2.1.0 log of a CI check, as an object (the caller serialises it): one run of the `svc-a11y` driver whose
 * results are the findings that break the threshold, each with its level from the impact, a repository-relative
 * location (the mapped source file, else the page's host and path; the full page URL stays in the message and in
 * `properties.pageUrl`), the selector as a logical location and the API's fingerprint in `partialFingerprints`.
 * Pages that could not be checked, a check that did not complete and results left out over `maxResults` are tool
 * execution notifications. Throws when a `sourceMap` entry is invalid (see {@link parseSourceMap}).
 * @example await writeFile('a11y.sarif', JSON.stringify(toSarif(prepareReport({ check, violations }), { toolVersion: '0.1.0' }), null, 2));
 */
export function toSarif(report: PreparedReport, options: SarifOptions): Log {
  const { check, failOn, findings, failedPages, verdict, batches } = report;
  const map = checkSourceMap(options.sourceMap ?? []);
  // The manual entries first, then the routes; each page URL matched once.
  const locate = sourceLocator(map, options.routes);
  // The alerts: findings that break their threshold, the suppressed ones included (marked as suppressed).
  const all = findings.filter((f) => f.breaking || (f.suppression !== undefined && f.wouldBreak));
  const failures = all.slice(0, Math.max(0, options.maxResults ?? MAX_SARIF_RESULTS));

  const byRule = new Map<string, CiViolation[]>();
  for (const { violation: v } of failures) byRule.get(ruleIdOf(v))?.push(v) ?? byRule.set(ruleIdOf(v), [v]);
  const ruleIds = [...byRule.keys()].sort(compareText);
  const rules = ruleIds.map((id) => ruleOf(id, byRule.get(id) ?? []));
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const results = failures.map((f) =>
    resultOf(f, ruleIndex.get(ruleIdOf(f.violation)) ?? -1, locate, batchOfFinding(report, f)),
  );
  const suppressedResults = failures.filter((f) => f.suppression !== undefined).length;

  const notifications: Notification[] = failedPages.map((page) => ({
    level: 'error',
    message: {
      text: displayText(
        `Page could not be checked (${pageStatusText(page)}): ${pageLabel(page.url)}`,
        MAX_MESSAGE_CHARS,
      ),
    },
    locations: [{ physicalLocation: physicalLocationOf(page.url, locate) }],
    ...(page.url ? { properties: { pageUrl: page.url } } : {}),
  }));
  // A page that was checked on a recheck says how it got there (`--recheck`), as every report does.
  for (const page of checkedOnRecheck(check.pages))
    notifications.push({
      level: 'note',
      message: {
        text: displayText(`Page checked again (${pageStatusText(page)}): ${pageLabel(page.url)}`, MAX_MESSAGE_CHARS),
      },
      locations: [{ physicalLocation: physicalLocationOf(page.url, locate) }],
      ...(page.url ? { properties: { pageUrl: page.url } } : {}),
    });
  if (verdict.outcome === 'UNKNOWN') {
    const text = displayText(`The check could not be judged: ${verdict.reasons.join('; ')}`, MAX_MESSAGE_CHARS);
    notifications.unshift({ level: 'error', message: { text } });
  }
  const omitted = all.length - failures.length;
  if (omitted > 0) {
    const text = `${omitted} more failing findings are not in this log, which holds the first ${failures.length} (GitHub code scanning rejects a run of over ${MAX_SARIF_RESULTS} results).`;
    notifications.push({ level: 'warning', message: { text } });
  }

  return wellFormed<Log>({
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        ...(options.category ? { automationDetails: { id: `${options.category.replace(/\/+$/, '')}/` } } : {}),
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
            executionSuccessful: verdict.outcome !== 'UNKNOWN' && failedPages.length === 0,
            ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        results,
        properties: {
          checkId: check.id,
          status: check.status,
          verdict: verdict.outcome,
          ...(check.verdict ? { serviceVerdict: check.verdict } : {}),
          failOn,
          ...(report.pageThresholds.length ? { pageThresholds: report.pageThresholds } : {}),
          ...(check.appUrl ? { appUrl: check.appUrl } : {}),
          ...(check.baselineMissing === undefined ? {} : { baselineMissing: check.baselineMissing }),
          ...(check.baselineCheckId ? { baselineCheckId: check.baselineCheckId } : {}),
          ...(omitted > 0 ? { omittedResults: omitted } : {}),
          ...(suppressedResults > 0 ? { suppressedResults } : {}),
          ...(batches.length > 1
            ? {
                batches: batches.map((b) => ({
                  batch: b.label,
                  ...(b.key ? { key: b.key } : {}),
                  checkId: b.checkId,
                  status: b.status,
                  verdict: b.verdict.outcome,
                  pages: b.urls.length,
                  ...(b.appUrl ? { appUrl: b.appUrl } : {}),
                })),
              }
            : {}),
        },
      },
    ],
  });
}
