// `svc-a11y mcp`: the MCP server for coding agents (src/cli/mcp/), loaded only when this command runs.
import type { Command } from '../context.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';
import { SETTINGS, settingOf } from '../settings/settings.js';

/** `svc-a11y mcp [--read-only] [--source-root <dir>]`. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve checks to coding agents over the Model Context Protocol (stdio)',
  args: { min: 0, max: 0, names: '' },
  options: optionsOf('mcp'),
  usage: `svc-a11y mcp [--read-only] [--source-root <dir>]

  Runs a Model Context Protocol server on stdin/stdout for an MCP client (Claude, Cursor, VS Code…) until stdin
  closes. It reads SVC_API_KEY, SVC_BASE_URL and the other settings like every command; logs go to stderr.
  Tools: list_sites, check_pages, scan_page, run_site_scan, get_findings, explain_root_causes, list_fixes, verify_fix.
  In a project whose routes
  it recognises (--source-root, SVC_SOURCE_ROOT, else the working directory), findings name the route file of their
  page. See docs/mcp.md.

${optionsHelp('mcp', 14)}`,
  async run(ctx) {
    const { serveMcp } = await import('../mcp/server.js');
    return serveMcp(ctx, { readOnly: settingOf(ctx, SETTINGS.readOnly).value });
  },
};
