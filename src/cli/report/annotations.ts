// GitHub Actions workflow commands that annotate the run: one `::error` per finding that breaks the threshold and
// one `::warning` per page that could not be checked. GitHub shows at most 10 annotations of each type per step.
// `annotationsOf` gives them as data (the GitHub Action hands them to @actions/core); `toGitHubAnnotations` as the
// command lines the CLI prints. Both read one list, so the two never disagree.
import { pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { CiViolation } from '../../index.js';
import type { PreparedReport } from '../verdict/prepare.js';
import { visibleText } from '../io/safe-text.js';
import { impactLabel, pageLabel, ruleIdOf, targetOf } from '../verdict/fields.js';
import type { RouteTable } from '../routes/index.js';
import { type SourceMapEntry, type SourceLocator, sourceLocator } from '../pages/source-location.js';

/** Options of {@link toGitHubAnnotations} and {@link annotationsOf}. */
export interface AnnotationOptions {
  /**
   * Maximum number of `::error` and `::warning` lines together; the rest is summed up in one `::notice`.
   * @default 10
   */
  max?: number;
  /**
   * URL path prefix → repository-relative source file (as `--source-map`): a finding on a mapped page is annotated
   * on that file, at line 1 (the API reports elements of rendered pages, not source lines).
   * @default []
   */
  sourceMap?: readonly SourceMapEntry[];
  /**
   * The route table of `--source-map auto`: a finding on a page no `sourceMap` entry covers is annotated on the
   * route file that renders it, at the line of its default export.
   * @default undefined (no inference)
   */
  routes?: RouteTable | undefined;
}

/** One annotation as data: what a workflow command or `@actions/core` turns into a line of the run. */
export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  /** Shown as the annotation's heading (none on the closing notice). */
  title?: string | undefined;
  /** The text, made visible (no control or invisible character); line breaks allowed. */
  message: string;
  /** Repository-relative file the annotation is placed on, when the source map names one. */
  file?: string | undefined;
  /** Line in `file`: 1 (the file as a whole), or the line a route module exports its page on. */
  line?: number | undefined;
}

/**
 * Escapes the message of a workflow command, as the Actions runner unescapes it (`%`, CR, LF); without this a
 * newline in API data could start a command of its own.
 * @example escapeData('50%\nok') // '50%25%0Aok'
 */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Escapes a property (`title=…`) of a workflow command: like {@link escapeData}, plus `:` and `,`, which end a
 * property.
 * @example escapeProperty('a:b,c') // 'a%3Ab%2Cc'
 */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// Control characters other than line breaks (which the escaping covers) would reach the log viewer raw, where an
// ESC could restyle the log, and invisible ones could hide a command from a reader; they become U+FFFD before
// escaping (the report was made safe already: this is the second line).
function clean(value: string): string {
  return visibleText(value);
}

function findingAnnotation(v: CiViolation, locate: SourceLocator): Annotation {
  const impact = impactLabel(v.impact);
  const title = `${v.isNew === true ? 'New ' : ''}${impact} accessibility finding: ${ruleIdOf(v)}`;
  const parts = [
    `${ruleIdOf(v)} at ${targetOf(v)} on ${pageLabel(v.url)}${checkpointText(v)}`,
    ...(v.wcagSc?.length ? [`WCAG ${v.wcagSc.join(', ')}`] : []),
    ...(v.failureSummary ? [v.failureSummary] : []),
    ...(v.helpUrl ? [`Help: ${v.helpUrl}`] : []),
  ];
  const source = locate(v.url);
  return {
    kind: 'error',
    title: clean(title),
    message: clean(parts.join('\n')),
    ...(source ? { file: source.file, line: source.line } : {}),
  };
}

/**
 * The annotations of a prepared report, as data: an error with the reasons when the check cannot be judged, a
 * warning per page that could not be checked (first, as they are few and mean the check is incomplete), then an
 * error per finding that breaks the threshold (new first; on its source file when `sourceMap` maps its page), at
 * most `max` in all, then a notice saying how many were left out.
 * @default options.max 10
 * @example for (const a of annotationsOf(report)) core[a.kind](a.message, { title: a.title, file: a.file, startLine: a.line });
 */
export function annotationsOf(report: PreparedReport, options: AnnotationOptions = {}): Annotation[] {
  const max = Math.max(0, Math.floor(options.max ?? 10));
  const locate = sourceLocator(options.sourceMap ?? [], options.routes);
  const { failures, failedPages, verdict } = report;
  // A check that cannot be judged says why first: it is the one line that explains the failed step.
  const unjudged: Annotation[] =
    verdict.outcome === 'UNKNOWN'
      ? [
          {
            kind: 'error',
            title: 'Accessibility check could not be judged',
            message: clean(verdict.reasons.join('\n')),
          },
        ]
      : [];
  const all: Annotation[] = [
    ...unjudged,
    ...failedPages.map(
      (p): Annotation => ({
        kind: 'warning',
        title: 'Page could not be checked',
        message: clean(`${pageLabel(p.url)} (status ${pageStatusText(p)})`),
      }),
    ),
    ...failures.map((v) => findingAnnotation(v, locate)),
  ];
  if (all.length <= max) return all;
  const hidden = all.length - max;
  const hiddenPages = Math.max(0, unjudged.length + failedPages.length - max);
  const hiddenFindings = hidden - hiddenPages;
  const detail = [
    ...(hiddenFindings ? [`${hiddenFindings} failing finding${hiddenFindings === 1 ? '' : 's'}`] : []),
    ...(hiddenPages ? [`${hiddenPages} unchecked page${hiddenPages === 1 ? '' : 's'}`] : []),
  ].join(' and ');
  return [
    ...all.slice(0, max),
    {
      kind: 'notice',
      message: `${hidden} more annotations not shown (${detail}); see the job summary or the reports.`,
    },
  ];
}

/** One annotation as a workflow command line (`::error file=…,line=1,title=…::message`). */
function commandLine(a: Annotation): string {
  const properties = [
    ...(a.file !== undefined ? [`file=${escapeProperty(a.file)}`, `line=${a.line ?? 1}`] : []),
    ...(a.title !== undefined ? [`title=${escapeProperty(a.title)}`] : []),
  ];
  return `::${a.kind}${properties.length ? ` ${properties.join(',')}` : ''}::${escapeData(a.message)}`;
}

/**
 * Workflow command lines for GitHub Actions (each printed as one line of output): the {@link annotationsOf} list,
 * an `::error` with the reasons when the check cannot be judged, a `::warning` per page that could not be checked,
 * then an `::error` per finding that breaks the threshold (new first), at most `max` lines in all, then
 * `::notice::N more …` when some were left out.
 * @default options.max 10
 * @example for (const line of toGitHubAnnotations(prepareReport({ check, violations }))) console.log(line);
 */
export function toGitHubAnnotations(report: PreparedReport, options: AnnotationOptions = {}): string[] {
  return annotationsOf(report, options).map(commandLine);
}
