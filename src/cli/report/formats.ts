// The formats a `ci` report is written in (`--format`, `--report FORMAT=FILE`, `format` and `reports` in the config
// file), defined once for the option checks, the config file and the report output.
import type { Syntax } from '../io/document-guard.js';

/**
 * Every report format, in the order the help lists them.
 * @example REPORT_FORMATS.includes('sarif') // true
 */
export const REPORT_FORMATS = ['text', 'json', 'junit', 'sarif', 'codequality', 'markdown', 'html'] as const;

/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * How the `wrote … to FILE` line names each format's report file.
 * @example `wrote ${REPORT_LABELS.junit} to a11y.xml` // 'wrote JUnit to a11y.xml'
 */
export const REPORT_LABELS: Readonly<Record<ReportFormat, string>> = {
  junit: 'JUnit',
  sarif: 'SARIF',
  codequality: 'the GitLab Code Quality report',
  markdown: 'Markdown',
  json: 'JSON',
  text: 'the text report',
  html: 'the HTML report',
};

/**
 * The syntax each format's document is written in, for the output guard (`guardDocument`), which redacts inside its
 * values only.
 * @example REPORT_SYNTAX.sarif // 'json'
 */
export const REPORT_SYNTAX: Readonly<Record<ReportFormat, Syntax>> = {
  text: 'text',
  json: 'json',
  junit: 'xml',
  sarif: 'json',
  codequality: 'json',
  markdown: 'text',
  html: 'html',
};
