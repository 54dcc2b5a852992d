// Report formatters of the `svc-a11y ci` command: pure functions from the API's records to strings (or a SARIF
// object). Explicit named exports only.
export type { CiReport, Impact } from '../verdict/fields.js';
export { IMPACTS, impactLabel, impactRank, normalizeImpact } from '../verdict/fields.js';
export { classifyFindings, inReportOrder, prepareReport } from '../verdict/prepare.js';
export type { Finding, PrepareOptions, PreparedReport } from '../verdict/prepare.js';
export { CHECK_SUITE, PAGE_CHECKED_TESTCASE, PAGE_STATUS_TESTCASE, toJUnit } from './junit.js';
export {
  DEFAULT_INFORMATION_URI,
  FINGERPRINT_KEY,
  MAX_SARIF_RESULTS,
  SARIF_SCHEMA,
  sarifLevel,
  toSarif,
} from './sarif.js';
export type { SarifOptions } from './sarif.js';
export {
  checkSarifMap,
  mappedFile,
  parseSarifMap,
  SOURCE_ROOT,
  sourceOf,
  UNKNOWN_PAGE_URI,
} from '../pages/source-location.js';
export type { SarifMapEntry } from '../pages/source-location.js';
export { mdCell, toMarkdown } from './markdown.js';
export { toCodeQuality } from './codequality.js';
export type { CodeQualityIssue, CodeQualityOptions } from './codequality.js';
export type { MarkdownOptions } from './markdown.js';
export { annotationsOf, escapeData, escapeProperty, toGitHubAnnotations } from './annotations.js';
export type { Annotation, AnnotationOptions } from './annotations.js';
export { cleanText, toText } from './text.js';
export type { TextOptions } from './text.js';
export { aggregateReports, batchOfFinding, batchOfPage } from '../verdict/aggregate.js';
export type { BatchSummary, SuppressionNote } from '../verdict/prepare.js';
export { toHtml } from './html.js';
export type { HtmlOptions, HtmlRunInfo } from './html.js';
