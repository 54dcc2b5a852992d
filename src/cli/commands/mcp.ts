// `svc-a11y mcp`: the MCP server for coding agents (src/cli/mcp/), loaded only when this command runs.
import type { Command } from '../context.js';

/** `svc-a11y mcp [--read-only]`. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve checks to coding agents over the Model Context Protocol (stdio)',
  args: { min: 0, max: 0, names: '' },
  options: { 'read-only': { type: 'boolean' } },
  usage: `svc-a11y mcp [--read-only]

  Runs a Model Context Protocol server on stdin/stdout for an MCP client (Claude, Cursor, VS Code…) until stdin
  closes. It reads SVC_API_KEY, SVC_BASE_URL and the other settings like every command; logs go to stderr.
  Tools: list_sites, check_pages, scan_page, get_findings, explain_root_causes, verify_fix. See docs/mcp.md.

  --read-only   list only the tools that start nothing: list_sites, get_findings, explain_root_causes`,
  async run(ctx) {
    const { serveMcp } = await import('../mcp/server.js');
    return serveMcp(ctx, { readOnly: ctx.values['read-only'] === true });
  },
};
