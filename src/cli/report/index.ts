// Report formatters of the `svc-a11y ci` command: pure functions from the API's records to strings (or a SARIF
// object). Explicit named exports only.
export type { CiReport } from '../verdict/fields.js';
export { classifyFindings, inReportOrder, prepareReport } from '../verdict/prepare.js';
export type { Finding, PrepareOptions, PreparedReport } from '../verdict/prepare.js';
export { toJUnit } from './junit.js';
export {
  FINGERPRINT_KEY,
  sarifLevel,
  toSarif,
} from './sarif.js';
export type { SarifOptions } from './sarif.js';
export { checkSourceMap } from '../pages/source-location.js';
export type { SourceMapEntry } from '../pages/source-location.js';
export { mdCell, toMarkdown } from './markdown.js';
export { toCodeQuality } from './codequality.js';
export type { MarkdownOptions } from './markdown.js';
export { annotationsOf, escapeData, escapeProperty, toGitHubAnnotations } from './annotations.js';
export type { AnnotationOptions } from './annotations.js';
export { cleanText, toText } from './text.js';
export type { TextOptions } from './text.js';
export { aggregateReports, batchOfPage } from '../verdict/aggregate.js';
export type { BatchSummary, SuppressionNote } from '../verdict/prepare.js';
export { toHtml } from './html.js';
export type { HtmlRunInfo } from './html.js';
