// GitLab's Code Quality report (`--report codequality=FILE`, declared as `artifacts: reports: codequality:`), so that
// findings show in the merge request widget: a JSON array of issues, each with `description`, `check_name`,
// `fingerprint` (unique in the file, stable across runs: GitLab compares the branch's report with the target's by
// it), `severity` (info, minor, major, critical or blocker) and `location` (`path` repository-relative, `lines.begin`
// from 1). Every finding that no reviewed suppression accepted is an issue; suppressed ones are left out.
import { checkpointText } from '../verdict/attempts.js';
import { impactLabel, normalizeImpact, ruleIdOf, targetOf } from '../verdict/fields.js';
import type { Finding, PreparedReport } from '../verdict/prepare.js';
import type { RouteTable } from '../routes/index.js';
import { hashOf, relativePathOf, type SourceMapEntry, sourceLocator } from '../pages/source-location.js';

/** One issue of a GitLab Code Quality report. */
export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  location: { path: string; lines: { begin: number } };
}

/** Options of {@link toCodeQuality}. */
export interface CodeQualityOptions {
  /** URL path prefix → source file: a finding on a mapped page points at its file (as in SARIF). */
  sourceMap?: readonly SourceMapEntry[] | undefined;
  /**
   * The route table of `--source-map auto`: a page no `sourceMap` entry covers points at its route file, at the
   * line of its default export (as in SARIF).
   * @default undefined (no inference)
   */
  routes?: RouteTable | undefined;
}

// GitLab's five severities from the impact axe-core gives a finding; an impact this version does not know is info.
const SEVERITY = { critical: 'critical', serious: 'major', moderate: 'minor', minor: 'info' } as const;

/**
 * The findings as a GitLab Code Quality report (an array; `JSON.stringify` it to write the file).
 * @example await writeFile('gl-code-quality.json', JSON.stringify(toCodeQuality(prepared, { sourceMap })));
 */
export function toCodeQuality(report: PreparedReport, options: CodeQualityOptions = {}): CodeQualityIssue[] {
  const locate = sourceLocator(options.sourceMap ?? [], options.routes);
  const seen = new Map<string, number>();
  return report.findings
    .filter((f) => f.suppression === undefined)
    .map((finding): CodeQualityIssue => {
      const v = finding.violation;
      const impact = normalizeImpact(v.impact);
      // The service's stable fingerprint when it gives one, else one of what identifies the finding; a repeat in the
      // file gets its ordinal, so fingerprints stay unique and the same run after run.
      const base = hashOf(v.fingerprint ?? `${ruleIdOf(v)}\u0000${v.url ?? ''}\u0000${targetOf(v)}`, 32);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return {
        description: describe(finding),
        check_name: `svc-a11y/${ruleIdOf(v)}`,
        fingerprint: n === 1 ? base : hashOf(`${base}\u0000${n}`, 32),
        severity: impact ? SEVERITY[impact] : 'info',
        location: {
          path: relativePathOf(v.url, locate),
          lines: { begin: locate(v.url)?.line ?? 1 },
        },
      };
    });
}

// One line a reviewer reads in the widget: the rule, the impact, the element and the page (already made safe).
function describe({ violation: v, breaking }: Finding): string {
  const what = v.failureSummary?.split('\n')[0]?.trim();
  const parts = [
    `${ruleIdOf(v)} (${impactLabel(v.impact)}${v.isNew === true ? ', new' : ''}${breaking ? ', fails the gate' : ''})`,
    `on ${targetOf(v)}`,
    ...(v.url ? [`at ${v.url}${checkpointText(v)}`] : []),
    ...(what ? [`: ${what}`] : []),
  ];
  return parts.join(' ').replace(' : ', ': ');
}
