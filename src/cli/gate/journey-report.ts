// A journey's outcome as one more check of the run: its checkpoints are its pages (each with its journey and label),
// its scans' findings its findings, prepared by the same pass as a CI check's (made safe, suppressions, per-URL
// thresholds) and judged by the gate's rules: FAIL when a finding breaks the threshold (it wins over what cannot be
// judged, as in a run of several checks), UNKNOWN when the journey failed, a checkpoint's scan did not complete or
// the wait ended, else PASS. Scans carry no `isNew`: with a journey baseline a finding is new when its fingerprint is
// not in it; without one, every finding is new, so NEW_CRITICAL is judged as ANY_CRITICAL, and the report says so.
import type { CiCheck, CiViolation, FailOn, SeverityCounts } from '../../index.js';
import { IMPACTS, normalizeImpact, plural } from '../verdict/fields.js';
import { ExitCode } from '../exit-codes.js';
import { safeCopy, safeText } from '../io/safe-text.js';
import { type PreparedReport, type PrepareOptions, prepareReport } from '../verdict/prepare.js';
import { DEFAULT_FAIL_ON } from '../../vocabulary/index.js';
import type { GateVerdict } from '../verdict/verdict.js';
import { type JourneyBaseline, journeyFingerprint, writeJourneyBaseline } from './journey-baseline.js';
import type { JourneyOutcome } from './journeys.js';

/** The batch key a journey's check carries in reports: `journey <id>`. */
const journeyKey = (id: string) => `journey ${id}`;

/** What {@link journeyReport} reads of the run. */
export type JourneyJudging = Pick<PrepareOptions, 'secrets' | 'suppressions' | 'failOnByUrl' | 'failOnIsFloor'> & {
  /** The run's threshold (`--fail-on`). */
  failOn?: FailOn | undefined;
  /** The journey baseline read, if any. */
  baseline?: JourneyBaseline | undefined;
};

/**
 * The fingerprints of a journey's findings, for the baseline file (of a journey whose every checkpoint was judged).
 * @example fingerprintsOf(outcome) // ['j1:…', …]
 */
function fingerprintsOf(outcome: JourneyOutcome): string[] {
  const prints = outcome.checkpoints.flatMap((c) => c.violations.map((v) => journeyFingerprint(v, c.label)));
  return [...new Set(prints)].sort();
}

/**
 * The threshold a journey's findings are judged under: the run's, but `ANY_CRITICAL` for `NEW_CRITICAL` when the
 * journey has no baseline entry.
 * @example judgedFailOn('NEW_CRITICAL', false) // 'ANY_CRITICAL'
 */
function judgedFailOn(failOn: FailOn | undefined, hasBaseline: boolean): FailOn {
  const run = failOn ?? DEFAULT_FAIL_ON;
  return run === 'NEW_CRITICAL' && !hasBaseline ? 'ANY_CRITICAL' : run;
}

/**
 * A journey's outcome prepared and judged as one check of the run.
 * @example const report = journeyReport(outcome, { failOn: 'NEW_CRITICAL', secrets: [apiKey] });
 */
export function journeyReport(outcome: JourneyOutcome, judging: JourneyJudging): PreparedReport {
  const known = judging.baseline?.journeys[outcome.journeyId];
  const prints = known ? new Set(known.fingerprints) : undefined;
  const failOn = judgedFailOn(judging.failOn, prints !== undefined);
  const last = outcome.runs.at(-1);
  const violations: CiViolation[] = outcome.checkpoints.flatMap((c) =>
    c.violations.map((v) => {
      const fingerprint = journeyFingerprint(v, c.label);
      return {
        ruleId: v.ruleId,
        impact: v.impact,
        wcagSc: v.wcagSc,
        url: v.url || c.url,
        helpUrl: v.helpUrl,
        target: v.target,
        failureSummary: v.failureSummary,
        fingerprint,
        checkpoint: { journey: outcome.name, label: c.label ?? '' },
        // Without a baseline every finding is new, as a CI check's are when its baseline is missing.
        isNew: prints ? !prints.has(fingerprint) : true,
      };
    }),
  );
  const pages = outcome.checkpoints.map((c) => ({
    url: c.url,
    status: c.scan?.status === 'COMPLETED' ? 'DONE' : (c.scan?.status ?? 'not scanned'),
    ...(c.scan?.counts ? { counts: c.scan.counts } : {}),
    checkpoint: { journey: outcome.name, label: c.label ?? '' },
  }));
  const check = {
    id: last?.id ?? 'not started',
    status: last?.status ?? 'QUEUED',
    failOn,
    baselineMissing: prints === undefined,
    counts: countsOf(violations),
    newCounts: countsOf(violations.filter((v) => v.isNew)),
    pages,
  } as CiCheck;
  const urls = pages.flatMap((p) => (p.url ? [p.url] : []));
  const label = `journey ${outcome.name}`;
  const prepared = prepareReport(
    { check, violations },
    { ...judging, failOn, batch: { key: journeyKey(outcome.journeyId), label, urls } },
  );
  const secrets = judging.secrets ?? [];
  const verdict = journeyVerdict(prepared.failures.length, failOn, safeCopy(outcome.notJudged, secrets), pages.length);
  const runFailOn = judging.failOn ?? DEFAULT_FAIL_ON;
  const listed = new Set(prepared.pageThresholds.map((p) => p.url));
  // A checkpoint judged as ANY_CRITICAL for want of a baseline is a page under another threshold than the run's.
  const substituted =
    failOn === runFailOn
      ? []
      : urls
          .map((url) => safeText(url, secrets))
          .filter((url) => !listed.has(url))
          .map((url) => ({ url, failOn }));
  return {
    ...prepared,
    failOn: runFailOn,
    pageThresholds: [...prepared.pageThresholds, ...substituted],
    verdict,
    batches: prepared.batches.map((b) => ({ ...b, serviceVerdict: undefined, verdict })),
    journeys: [
      {
        journeyId: safeText(outcome.journeyId, secrets),
        name: safeText(outcome.name, secrets),
        ...(last?.id ? { runId: safeText(last.id, secrets) } : {}),
        ...(last?.status ? { status: safeText(last.status, secrets) } : {}),
        runs: outcome.runs.length,
        failOn,
        baseline: prints !== undefined,
        checkpoints: safeCopy(
          outcome.checkpoints.map((c) => ({ label: c.label, url: c.url, scanId: c.scanId, status: c.scan?.status })),
          secrets,
        ),
        verdict,
      },
    ],
  };
}

// Findings by impact (a finding of an impact the reports do not know counts in none, as in a CI check's counts).
const countsOf = (violations: readonly CiViolation[]): SeverityCounts =>
  Object.fromEntries(
    IMPACTS.map((i) => [i, violations.filter((v) => normalizeImpact(v.impact) === i).length]),
  ) as SeverityCounts;

// FAIL when a finding breaks the threshold (what could not be judged named too); else UNKNOWN with every reason;
// else PASS.
function journeyVerdict(failures: number, failOn: FailOn, notJudged: string[], checkpoints: number): GateVerdict {
  if (failures > 0)
    return {
      outcome: 'FAIL',
      exitCode: ExitCode.VERDICT_FAIL,
      reasons: [
        `${plural(failures, 'finding')} ${failures === 1 ? 'breaks' : 'break'} the threshold ${failOn}`,
        ...notJudged.map((r) => `also not judged: ${r}`),
      ],
    };
  if (notJudged.length) return { outcome: 'UNKNOWN', exitCode: ExitCode.INCOMPLETE, reasons: notJudged };
  return {
    outcome: 'PASS',
    exitCode: ExitCode.OK,
    reasons: [`${plural(checkpoints, 'checkpoint')} checked, and no finding breaks the threshold ${failOn}`],
  };
}

/**
 * The journeys' baseline after a run, and what the run says of it: a run that sets the baseline writes the entries of
 * the journeys it judged whole (the others keep theirs); findings judged as ANY_CRITICAL for want of an entry are
 * named. Returns the stderr lines.
 * @example for (const line of journeyBaselineNotes(options, outcomes, baseline, secrets)) err(line);
 */
export function journeyBaselineNotes(
  options: { setBaseline: boolean; journeyBaseline: string | undefined; failOn: FailOn | undefined },
  outcomes: readonly JourneyOutcome[],
  baseline: JourneyBaseline | undefined,
  secrets: readonly string[],
): string[] {
  const lines: string[] = [];
  const file = options.journeyBaseline;
  const whole = outcomes.filter((o) => o.notJudged.length === 0);
  let written = false;
  if (options.setBaseline && file && whole.length > 0) {
    try {
      writeJourneyBaseline(
        file,
        baseline,
        Object.fromEntries(whole.map((o) => [o.journeyId, { name: o.name, fingerprints: fingerprintsOf(o) }])),
      );
      written = true;
      lines.push(`note: journey baseline: saved the findings of ${plural(whole.length, 'journey')} to ${file}`);
    } catch (error) {
      // The run's verdict and reports stand; the next runs judge these journeys as ANY_CRITICAL until one saves it.
      lines.push(`warning: journey baseline: ${file} could not be written (${(error as Error).message})`);
    }
  }
  const without = outcomes.filter((o) => !baseline?.journeys[o.journeyId]);
  if (without.length > 0 && judgedFailOn(options.failOn, false) !== judgedFailOn(options.failOn, true)) {
    const names = safeCopy(
      without.map((o) => o.name),
      secrets,
    ).join(', ');
    const saved = written && without.every((o) => whole.includes(o));
    const keep = saved
      ? `this run has written theirs to ${file}, for the runs after it`
      : file
        ? `${file} has no entry for them yet; a run that sets the baseline writes it`
        : '--journey-baseline FILE keeps one';
    lines.push(
      `note: journey findings of ${names} are judged as ANY_CRITICAL: NEW_CRITICAL needs a journey baseline (${keep})`,
    );
  }
  return lines;
}
