// `svc-a11y mcp`: the wiring of the MCP server on stdio. One client for every tool (one rate budget, the fleet's
// through SVC_REDIS_URL), built as every command builds it; tools listed and run by name; stdout carries the protocol
// only, every line of it redacted once more on its way out; the server stops, and the command returns 0, when stdin
// ends.
import { Readable, Writable } from 'node:stream';
import { type A11yClient, PollTimeoutError } from '../../index.js';
import { routeTableOf } from '../gate/route-table.js';
import { type CommandContext, clientFrom, version } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { CliIO } from '../io/output.js';
import { guardDocument } from '../io/document-guard.js';
import { sourceLocator } from '../pages/source-location.js';
import { SETTINGS, settingOf } from '../settings/settings.js';
import { safeLine } from '../io/safe-text.js';
import { boundResult } from './bounds.js';
import { deadlineResult, errorResult, failure } from './errors.js';
import { callBound, compileInput } from './input.js';
import { type LogSink, teeToLog } from './log.js';
import { loadMcpLibrary } from './load.js';
import { progressReporter } from './progress.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';
import { PENDING, TOOLS } from './tools/index.js';

/** The tools `--read-only` lists, in words. */
const READ_ONLY_NAMES = TOOLS.filter((tool) => tool.readOnly)
  .map((tool) => tool.name)
  .join(', ');

/** What the server tells a client about itself (the protocol's `instructions`). */
const INSTRUCTIONS =
  "Accessibility checks of the pages of the organisation's registered sites. list_sites names the sites; check_pages checks up to 20 pages of one verified site against its baseline (verdict and new findings); scan_page checks one page; run_site_scan crawls a whole site; get_findings reads the findings of a check, scan or scan run (also one whose wait ran out); explain_root_causes groups a scan run's findings by cause with guidance and an example fix; list_fixes lists a site's tracked fixes and verify_fix re-checks one. The service fetches pages itself: they must be deployed at public addresses of a registered site, never localhost.";

/** Options of {@link serveMcp}. */
export interface McpOptions {
  /** List and run only the tools that start nothing at the service (`--read-only`). */
  readOnly: boolean;
}

/**
 * Runs the MCP server on the command's stdin and stdout until stdin ends, then returns exit code 0.
 * @example return serveMcp(ctx, { readOnly: ctx.values['read-only'] === true });
 */
export async function serveMcp(ctx: CommandContext, options: McpOptions): Promise<number> {
  const io = ctx.out.io;
  if (!(io.stdin instanceof Readable)) throw new UsageError('mcp needs a standard input stream', 'mcp');
  const stdin = io.stdin;
  const sink: LogSink = {};
  const out = teeToLog(ctx.out, sink);
  const cleanups: Array<() => Promise<void>> = [];
  const { client, unavailable } = startClient(ctx, out, cleanups);
  const locate = routeLocator(ctx, out);
  try {
    return await serve({ io, stdin, out, sink, client, unavailable, locate }, options);
  } finally {
    // The Redis connection of the fleet's budget, when SVC_REDIS_URL is set.
    await Promise.all(cleanups.map((close) => close().catch(() => undefined)));
  }
}

/** What the server runs with: the streams, the log, and the client (or why there is none). */
interface Served {
  io: CliIO;
  stdin: Readable;
  out: CommandContext['out'];
  sink: LogSink;
  client: A11yClient | undefined;
  unavailable: string | undefined;
  locate: ToolContext['locate'];
}

async function serve(
  { io, stdin, out, sink, client, unavailable, locate }: Served,
  options: McpOptions,
): Promise<number> {
  const tools = TOOLS.filter((tool) => !options.readOnly || tool.readOnly);
  const library = await loadMcpLibrary();
  const ajv = library.inputValidator();
  const checks = new Map(tools.map((tool) => [tool.name, compileInput(ajv, tool)]));
  // Aborts every wait in flight when the client goes away: a stopped server leaves nothing polling.
  const shutdown = new AbortController();

  const server = new library.Server(
    { name: 'svc-a11y', version },
    { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(library.ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      outputSchema: tool.outputSchema as { type: 'object' },
      annotations: {
        title: tool.title,
        readOnlyHint: tool.readOnly,
        // The waits start jobs that change nothing on the site or in the account but their own records.
        destructiveHint: false,
        idempotentHint: tool.readOnly,
        openWorldHint: true,
      },
    })),
  }));
  server.setRequestHandler(library.CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = tools.find((t) => t.name === name);
    if (!tool) {
      const hidden = TOOLS.some((t) => t.name === name);
      throw new library.McpError(
        library.ErrorCode.InvalidParams,
        `Unknown tool ${safeLine(name, out.secrets)}${hidden ? `: the server runs with --read-only, which lists only ${READ_ONLY_NAMES}` : ''}`,
      );
    }
    const input = request.params.arguments ?? {};
    const broken = checks.get(tool.name)!(input);
    if (broken.length)
      return failure(
        `Invalid input for ${tool.name}: ${broken.map((b) => `${b.field} ${b.rule}`).join('; ')}. Nothing was sent to the service.`,
        { kind: 'input', fields: broken.map((b) => b.field) },
      );
    if (!client) return failure(`${unavailable}.`, { kind: 'configuration' });
    const call: Call = { timeoutMs: callBound(tool, input), deadline: new AbortController(), id: undefined };
    const context: ToolContext = {
      client,
      secrets: out.secrets,
      signal: AbortSignal.any([extra.signal, shutdown.signal, call.deadline.signal]),
      progress: progressReporter(request.params._meta?.progressToken, (params) =>
        extra.sendNotification({ method: 'notifications/progress', params }),
      ),
      working: (id) => {
        call.id = id ?? call.id;
      },
      locate,
    };
    return boundResult(await run(tool, input, context, out, call), tool.name);
  });

  // The client is gone when stdin ends, or when stdout breaks (EPIPE: nobody reads the answers any more).
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    server.onclose = resolve;
    (io.stdout as { on?: (event: 'error', listener: () => void) => unknown }).on?.('error', resolve);
  });
  // Log notifications start once the client said it is initialized (the protocol's order); stderr has every line.
  server.oninitialized = () => {
    sink.send = (level, data) => {
      server.sendLoggingMessage({ level, logger: 'svc-a11y', data }).catch(() => undefined);
    };
  };
  await server.connect(new library.StdioServerTransport(stdin, redactingStdout(io, out.secrets)));
  out.err(
    `svc-a11y ${version} mcp: serving ${tools.map((t) => t.name).join(', ')} on stdio${options.readOnly ? ' (read-only)' : ''}`,
  );
  await closed;
  sink.send = undefined;
  shutdown.abort();
  await server.close().catch(() => undefined);
  return ExitCode.OK;
}

// Where findings are acted on: the route files of the project at --source-root (SVC_SOURCE_ROOT, else the working
// directory), as `ci --source-map auto` finds them. Outside a recognised project there is none, and no finding carries
// a source; a --source-root that names no project is said once on stderr, and the server serves all the same.
function routeLocator(ctx: CommandContext, out: CommandContext['out']): ToolContext['locate'] {
  let routes: ReturnType<typeof routeTableOf>;
  try {
    routes = routeTableOf({
      items: [],
      sourceRoot: settingOf(ctx, SETTINGS.sourceRoot),
      basePath: settingOf(ctx, SETTINGS.basePath),
      cwd: process.cwd(),
      warn: (line) => out.err(line),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    out.err(`warning: findings carry no source file: ${error.message}`);
    return undefined;
  }
  if (!routes) return undefined;
  out.err(`svc-a11y mcp: findings name the route files of ${routes.folders.join(', ')} (${routes.framework})`);
  const locate = sourceLocator([], routes);
  return (url) => {
    const found = locate(url);
    return found && { file: found.file, line: found.line };
  };
}

// The one client of the server. Without a key or an address the server still starts, so the agent's client shows
// why every tool fails (and where to set it) instead of a server that would not start.
function startClient(
  ctx: CommandContext,
  out: CommandContext['out'],
  cleanups: Array<() => Promise<void>>,
): { client?: A11yClient; unavailable?: string } {
  try {
    return { client: clientFrom(ctx.values, ctx.out.io.env, out, cleanups) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const unavailable = `The server has no working client: ${error.message}. Set it in the env of the server's mcpServers entry and restart the server`;
    out.err(`warning: ${unavailable}`);
    return { unavailable };
  }
}

/** One call's bound: its `timeoutMs`, the controller that ends it, and the job it started or reads. */
interface Call {
  timeoutMs: number;
  deadline: AbortController;
  id: string | undefined;
}

// One call: its result, or its failure in words, within its bound whatever the tool awaits (a body that arrives a
// byte a second included): when the bound passes, its signal aborts what is in flight and the call answers at once.
// A cancelled call's result is never sent (the protocol drops it).
async function run(
  tool: Tool,
  input: Record<string, unknown>,
  ctx: ToolContext,
  out: CommandContext['out'],
  call: Call,
) {
  const timer = setTimeout(() => call.deadline.abort(), call.timeoutMs);
  const late = new Promise<'late'>((resolve) => call.deadline.signal.addEventListener('abort', () => resolve('late')));
  const running = tool.run(input, ctx);
  // Settled after the bound, it has no one to answer: its rejection is expected (aborted), not unhandled.
  running.catch(() => undefined);
  try {
    const outcome = await Promise.race([running, late]);
    if (outcome !== 'late') return outcome;
    return timedOut(tool, call, out);
  } catch (error) {
    if (call.deadline.signal.aborted) return timedOut(tool, call, out);
    if (ctx.signal.aborted && !(error instanceof PollTimeoutError))
      return failure(`${tool.name} was cancelled; a job it started keeps running at the service.`, {
        kind: 'cancelled',
      });
    const result = errorResult(error, {
      tool: tool.name,
      needs: tool.needs(input),
      secrets: out.secrets,
      pending: PENDING[tool.name],
      timeoutMs: typeof input.timeoutMs === 'number' ? input.timeoutMs : undefined,
    });
    out.err(`warning: ${tool.name}: ${result.content[0]!.text}`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(tool: Tool, call: Call, out: CommandContext['out']): ToolResult {
  const result = deadlineResult({
    tool: tool.name,
    timeoutMs: call.timeoutMs,
    id: call.id,
    pending: PENDING[tool.name],
    secrets: out.secrets,
  });
  out.err(`warning: ${tool.name}: ${result.content[0]!.text}`);
  return result;
}

// stdout as the transport writes it (one JSON message a line): each message redacted once more inside its strings
// (the key in any spelling, URL credentials, token parameters), parsed and written again when anything changed, so a
// line always stays valid JSON — a pattern run over the serialised line once took the `\` of a `\"` and the client
// dropped the message, waiting for an answer that never came.
function redactingStdout(io: CliIO, secrets: readonly string[]): Writable {
  const stdout = io.stdout as { write(text: string, done?: (error?: Error | null) => void): unknown };
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      // A write error (EPIPE: the client is gone) ends the server through stdout's 'error' (serve's `closed`); passed
      // on here it would be an unhandled error of this stream.
      stdout.write(guardDocument(String(chunk), 'json-lines', secrets), () => done());
    },
  });
}
