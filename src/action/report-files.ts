// The report files the action always has the CLI write, in the folder of its `reports-dir`.
import { join } from 'node:path';

/** The report files the action always writes (its `sarif-file` and `junit-file` outputs), by format. */
export interface ReportFiles {
  sarif: string;
  junit: string;
}

/**
 * The report paths in `dir`.
 * @example reportFiles('/tmp/a11y').sarif // '/tmp/a11y/a11y.sarif'
 */
export function reportFiles(dir: string): ReportFiles {
  return { sarif: join(dir, 'a11y.sarif'), junit: join(dir, 'a11y-junit.xml') };
}
