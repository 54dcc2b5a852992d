// The part of the Model Context Protocol SDK the server uses, with the JSON Schema validator it ships with (ajv),
// built on its own as dist/cli-mcp.js (ESM, minified, every library bundled in: tsup.config.ts). Loaded only by
// `svc-a11y mcp` (load.ts), so no other command, no library entry and not the GitHub Action's bundle carry it.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * A JSON Schema validator of tool inputs: every error reported (so a message can name each field), `format`
 * checked as ajv-formats defines it.
 * @example const check = inputValidator().compile(schema); if (!check(args)) console.log(check.errors);
 */
export function inputValidator(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true });
  // ajv-formats is CommonJS: its default export is the plugin function under both module systems.
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}
