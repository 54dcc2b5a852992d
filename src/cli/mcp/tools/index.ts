// Every tool of the MCP server, in the order tools/list shows them, and where an agent reads a job it stopped
// waiting for.
import type { Pending } from '../errors.js';
import type { Tool } from '../tool.js';
import { checkPages } from './check-pages.js';
import { explainRootCauses } from './explain-root-causes.js';
import { getFindings } from './get-findings.js';
import { listFixes } from './list-fixes.js';
import { listSites } from './list-sites.js';
import { runSiteScan } from './run-site-scan.js';
import { scanPage } from './scan-page.js';
import { verifyFix } from './verify-fix.js';

/** The tools, in the order tools/list shows them. */
export const TOOLS: readonly Tool[] = [
  listSites,
  checkPages,
  scanPage,
  runSiteScan,
  getFindings,
  explainRootCauses,
  listFixes,
  verifyFix,
];

/** For each tool that waits for a job: what the job is called and how to read it after the wait ran out. */
export const PENDING: Readonly<Record<string, Pending>> = {
  check_pages: { kind: 'CI check', readLater: (id) => `get_findings with {"checkId": "${id}"}` },
  scan_page: { kind: 'scan', readLater: (id) => `get_findings with {"scanId": "${id}"}` },
  run_site_scan: {
    kind: 'scan run',
    readLater: (id) => `get_findings or explain_root_causes with {"scanRunId": "${id}"}`,
  },
  // No tool reads a verification by id: its outcome also updates the tracked fix, which the service's app shows.
  verify_fix: {
    kind: 'fix verification',
    readLater: (id) =>
      `the service's app, or GET /api/v1/fix-verifications/${id} (svc-a11y and the SDK: client.fixVerifications.get); calling verify_fix again starts another verification`,
  },
};
