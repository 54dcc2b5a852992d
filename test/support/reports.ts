// The reporters take a prepared report (made safe and judged once, as the CLI does before any reporter runs);
// tests that start from the API's raw records prepare them the same way.
import {
  type AnnotationOptions,
  type CiReport,
  type MarkdownOptions,
  type PrepareOptions,
  prepareReport,
  type SarifOptions,
  type TextOptions,
  toGitHubAnnotations,
  toJUnit,
  toMarkdown,
  toSarif,
  toText,
} from '../../src/cli/report/index.js';

export const textOf = (r: CiReport, o: TextOptions, p?: PrepareOptions) => toText(prepareReport(r, p), o);
export const markdownOf = (r: CiReport, o?: MarkdownOptions, p?: PrepareOptions) => toMarkdown(prepareReport(r, p), o);
export const junitOf = (r: CiReport, p?: PrepareOptions) => toJUnit(prepareReport(r, p));
export const sarifOf = (r: CiReport, o: SarifOptions, p?: PrepareOptions) => toSarif(prepareReport(r, p), o);
export const annotationsOf = (r: CiReport, o?: AnnotationOptions, p?: PrepareOptions) =>
  toGitHubAnnotations(prepareReport(r, p), o);
