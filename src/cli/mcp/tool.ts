// What a tool of the MCP server is: its listing (name, description, JSON Schema input, hints) and its run.
import type { A11yClient } from '../../index.js';

/** Where a page's findings are acted on: a file relative to the repository root (`/`-separated) and a line ≥ 1. */
export interface SourceLocation {
  file: string;
  line: number;
}

/** A JSON Schema object, as tools/list shows it and ajv checks it. */
export type JsonSchema = { [keyword: string]: unknown };

/** A tool's answer: a short text for clients that show text only, and the same facts as data. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
}

/** What a tool runs with. */
export interface ToolContext {
  /** The one client of the server: every tool shares its rate budget (and `SVC_REDIS_URL`'s fleet budget). */
  client: A11yClient;
  /** The secrets of the process, for making the service's text safe where it enters (`safeCopy`). */
  secrets: readonly string[];
  /** Aborted when the client cancels the request, or when the server shuts down. */
  signal: AbortSignal;
  /** Reports progress when the request asked for it (a `progressToken`); a no-op otherwise. */
  progress(done: number, total: number | undefined, message: string): void;
  /** Records the id of the job the call started or reads, so a call that runs out of time can name it. */
  working(id: string | undefined): void;
  /** The route file that renders a page, where the server runs in a project whose routes it recognises. */
  locate?: ((url: string | undefined) => SourceLocation | undefined) | undefined;
}

/** The scopes and plan features a call needs, named by a 403. */
export interface Needs {
  scopes: readonly string[];
  features: readonly string[];
}

/** One tool of the server. */
export interface Tool<I = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  /** True for tools that start nothing at the service (`readOnlyHint`; the only ones `--read-only` lists). */
  readOnly: boolean;
  /** The input's JSON Schema: `additionalProperties: false`, every rule the input must follow. */
  inputSchema: JsonSchema;
  /** The JSON Schema `structuredContent` follows, an `isError` result's included (see `OUTPUT_SCHEMAS`). */
  outputSchema: JsonSchema;
  /** What the service asks of the key for this input (a 403 names it). */
  needs(input: I): Needs;
  /** A check the schema cannot state (e.g. exactly one of three ids): the broken rule, or undefined. */
  refine?(input: I): { field: string; rule: string } | undefined;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * A tool whose input type is checked against its own code, stored with the others.
 * @example export const listSites = defineTool<Record<string, never>>({ name: 'list_sites', … });
 */
export function defineTool<I>(tool: Tool<I>): Tool {
  return tool as unknown as Tool;
}
