// Loads the MCP library (library.ts) only when `svc-a11y mcp` runs. Built, it is dist/cli-mcp.js next to the CLI's
// chunks; the specifier is computed so that no bundler (tsup's CLI build, the GitHub Action's esbuild bundle) pulls
// the library into the file that imports this one.

/** What library.ts exports. */
export type McpLibrary = typeof import('./library.js');

/**
 * The MCP library: `dist/cli-mcp.js` when the CLI runs built, `library.ts` when it runs from source (tests).
 * @example const { Server, StdioServerTransport } = await loadMcpLibrary();
 */
export async function loadMcpLibrary(): Promise<McpLibrary> {
  const file = import.meta.url.endsWith('.ts') ? './library.ts' : './cli-mcp.js';
  return (await import(new URL(file, import.meta.url).href)) as McpLibrary;
}
