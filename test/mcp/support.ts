// Drives the built `svc-a11y mcp` (dist/cli.js) as an MCP client would: the MCP SDK's own Client over its stdio
// transport, with everything the server writes to stderr and every log notification kept for the assertions.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach } from 'vitest';
import { cliPath } from '../support/cli.js';

/** A running server and the client connected to it. */
export interface McpSession {
  client: Client;
  /** The server's process id (it is stopped by it). */
  pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** The data of every log notification so far. */
  logs: string[];
  /** Calls a tool; the result as the protocol carried it. */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: Parameters<Client['callTool']>[2],
  ): Promise<CallToolResult>;
}

/**
 * Starts `node dist/cli.js mcp …args` with exactly `env` (plus the PATH and HOME the transport passes) and connects
 * a client. Every server a test starts is closed after it (`until: 'test'`), or after the file for one that several
 * tests share (`until: 'file'`, started in a `beforeAll`); its process is killed by PID if it outlives the close.
 * @default until 'test'
 * @example const mcp = await startMcp({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
 */
export function mcpSessions({
  until = 'test',
}: {
  until?: 'test' | 'file';
} = {}): (env: Record<string, string>, args?: string[]) => Promise<McpSession> {
  const open: Array<{ client: Client; pid: number }> = [];
  (until === 'test' ? afterEach : afterAll)(async () => {
    await Promise.all(
      open.splice(0).map(async ({ client, pid }) => {
        await client.close().catch(() => undefined);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {} // already gone
      }),
    );
  });
  return async (env, args = []) => {
    if (!existsSync(cliPath)) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does).');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', ...args],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'svc-a11y-tests', version: '1.0.0' });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data));
    });
    await client.connect(transport);
    const pid = transport.pid!;
    open.push({ client, pid });
    return {
      client,
      pid,
      stderr: () => stderr,
      logs,
      call: async (name, callArgs = {}, options) =>
        (await client.callTool({ name, arguments: callArgs }, undefined, options)) as CallToolResult,
    };
  };
}

/** The text of a result's first content item. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** A promise with its resolve, for events the tests wait on. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Waits until `condition` holds, checking every 20 ms (a hang guard, not a bound: the test's timeout ends it). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 20));
}

/** A server spoken to line by line, for what the SDK's client hides: the exit code, and stdout as written. */
export interface RawServer {
  /** Sends one JSON-RPC message. */
  send(message: object): void;
  /** Every line written to stdout so far, parsed. */
  messages(): Array<Record<string, unknown>>;
  stdout(): string;
  stderr(): string;
  /** Ends stdin, then resolves with the exit code (null when killed: a hang guard kills it after 10 s). */
  closeStdin(): Promise<number | null>;
}

/**
 * Starts `node dist/cli.js mcp` with exactly `env` and says `initialize` and `initialized`. The process is killed by
 * its PID after the test, whatever happened.
 * @example const raw = rawServers(); const server = raw({ SVC_API_KEY, SVC_BASE_URL });
 */
export function rawServers(): (env: Record<string, string>) => RawServer {
  const started: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
  });
  return (env) => {
    const child = spawn(process.execPath, [cliPath, 'mcp'], { env: { PATH: process.env.PATH ?? '', ...env } });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return {
      send,
      messages: () =>
        stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      stdout: () => stdout,
      stderr: () => stderr,
      closeStdin: async () => {
        child.stdin.end();
        // "Soon": before a timer of 10 s set alongside, which kills the process (a killed process has code null).
        const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const code = await exited;
        clearTimeout(guard);
        return code;
      },
    };
  };
}
