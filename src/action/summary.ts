// The step summary's Markdown: the CLI's own summary of the report (toMarkdown), with a link to the pull request
// comment; or, when no check ran, why not.
import { mdCell, type PreparedReport, toMarkdown } from '../cli/index.js';

/**
 * The summary of a judged report: `toMarkdown`'s, then a line linking the pull request comment when one was
 * written. Kept under GitHub's 1 MiB limit for one step's summary.
 * @example reportSummary(prepared, 'https://github.com/acme/shop/pull/7#issuecomment-1')
 */
export function reportSummary(report: PreparedReport, commentUrl: string | undefined): string {
  const comment =
    commentUrl && /^https?:\/\//.test(commentUrl)
      ? `\nPull request comment: [updated on every run](${commentUrl.replace(/[()<> |]/g, encodeURIComponent)})\n`
      : '';
  return toMarkdown(report, { maxBytes: 1_000_000 - 1_000 }) + comment;
}

/**
 * The summary of a run in which no check ran: the heading says so, then the reasons (already redacted).
 * @param skipped - true when the step passes anyway (`if-no-key: skip`)
 * @example notRunSummary(['no API key …'], true)
 */
export function notRunSummary(reasons: readonly string[], skipped: boolean): string {
  return [
    `## Accessibility check: ${skipped ? 'skipped' : 'not run'}`,
    '',
    skipped
      ? 'The check did not run, and the step passes (`if-no-key: skip`): nothing was judged.'
      : 'The check did not run, so nothing was judged.',
    '',
    ...reasons.map((r) => `- ${mdCell(r)}`),
    '',
  ].join('\n');
}
