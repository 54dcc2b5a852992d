// Every failure of a tool call as an `isError` result: what happened, the problem's code, and the next step. The
// service's words are made one safe line (secrets in every spelling, controls, URL credentials) like the CLI's
// error lines; nothing of a stack trace.
import type { ApiError } from '../../index.js';
import { describeError, type ErrorDescription } from '../io/describe-error.js';
import { safeLine } from '../io/safe-text.js';
import type { Needs, ToolResult } from './tool.js';

/** What a failed call's result says about the job it waited for, to read it later. */
export interface Pending {
  /** What the job is called in words: `CI check`, `scan`, `fix verification`. */
  kind: string;
  /** How an agent reads it later, given its id: `get_findings with {"checkId": "…"}`. */
  readLater(id: string): string;
}

/**
 * An `isError` result with `text` and, as data, the error's facts.
 * @example return failure('Invalid input: urls is required. Nothing was sent.', { kind: 'input' });
 */
export function failure(text: string, error: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true };
}

/**
 * The result of a call that ran out of its `timeoutMs` (the server's own bound of the whole call, the reads after a
 * wait included): the bound, and the job to read later when the call had one.
 * @example return deadlineResult({ tool: 'check_pages', timeoutMs: 3000, id, pending: PENDING.check_pages });
 */
export function deadlineResult(call: {
  tool: string;
  timeoutMs: number;
  id: string | undefined;
  pending: Pending | undefined;
  secrets: readonly string[];
}): ToolResult {
  const bound = `${call.tool} did not finish within its timeoutMs of ${call.timeoutMs} ms`;
  const id = call.id === undefined ? undefined : safeLine(call.id, call.secrets);
  const facts = { kind: 'timeout', timeoutMs: call.timeoutMs, ...(id === undefined ? {} : { id }) };
  if (!call.pending)
    return failure(
      `${bound}: the service answered too slowly. Nothing was changed; call ${call.tool} again${id ? ` for ${id}` : ''}, with a longer timeoutMs (at most 600000).`,
      facts,
    );
  if (id === undefined)
    return failure(
      `${bound}: the service did not accept the job in that time. It may still start; try again with a longer timeoutMs.`,
      facts,
    );
  return failure(
    `${bound}: the ${call.pending.kind} ${id} keeps running, or keeps its results, at the service. Read it later with ${call.pending.readLater(id)}.`,
    facts,
  );
}

/**
 * The result of a call that failed with `error`: the tool's name, `needs` (a 403 names them) and, for a wait, the
 * job it was waiting for.
 * @example catch (error) { return errorResult(error, { tool: 'list_sites', needs, secrets }); }
 */
export function errorResult(
  error: unknown,
  call: { tool: string; needs: Needs; secrets: readonly string[]; pending?: Pending | undefined; timeoutMs?: number },
): ToolResult {
  const d = describeError(error, call.secrets);
  switch (d.kind) {
    case 'timeout': {
      const waited = `${call.tool} waited ${call.timeoutMs ?? d.elapsedMs} ms (timeoutMs)`;
      if (d.jobId === undefined || !call.pending)
        return failure(
          `${waited}: the service did not accept the job in that time. It may still start; try again with a longer timeoutMs.`,
          { kind: 'timeout' },
        );
      return failure(
        `${waited} and the ${call.pending.kind} ${d.jobId} is still ${d.lastStatus ?? 'running'}: the wait ended, not the job, which keeps running at the service. Read it later with ${call.pending.readLater(d.jobId)}.`,
        { kind: 'timeout', id: d.jobId, status: d.lastStatus },
      );
    }
    case 'input':
      return failure(`Invalid input: ${d.field} ${d.rule}. Nothing was sent to the service.`, {
        kind: 'input',
        field: d.field,
      });
    case 'api':
      return apiFailure(d, call.tool, call.needs);
    case 'connection':
      return failure(
        `The service could not be reached (${d.message}). Check SVC_BASE_URL in the server's environment: it must be the service's address, reachable from this machine (and HTTPS_PROXY when a proxy is in between).`,
        { kind: 'connection' },
      );
    case 'not-the-api':
      return failure(`${d.message} Is SVC_BASE_URL the service's API address?`, { kind: 'not-the-api' });
    case 'configuration':
      return failure(d.message, { kind: 'configuration' });
    default:
      return failure(`Internal error of the MCP server: ${d.message} (a bug: please report it).`, { kind: 'internal' });
  }
}

function apiFailure(d: ErrorDescription, tool: string, needs: Needs): ToolResult {
  const said = [d.title, d.detail].filter(Boolean).join(': ');
  const head = `The service answered ${d.status}${d.code ? ` ${d.code}` : ''}${said ? ` (${said})` : ''}.`;
  const next = nextStep(d.error!, tool, needs);
  return failure(`${head}${next ? ` ${next}` : ''}${d.traceId ? ` traceId: ${d.traceId}.` : ''}`, {
    kind: 'api',
    status: d.status,
    code: d.code,
    traceId: d.traceId,
  });
}

// What to do about an answer, by its code (document §7), else by its status.
function nextStep(error: ApiError, tool: string, needs: Needs): string | undefined {
  const scopes = needs.scopes.join(' and ');
  const features = needs.features.join(' and ');
  // A 401 without a problem document is still a key the service refused.
  switch (error.code ?? (error.status === 401 ? 'API_KEY_INVALID' : undefined)) {
    case 'API_KEY_INVALID':
      return "The API key is missing, wrong or revoked: set SVC_API_KEY in the MCP server's environment (the env of its mcpServers entry) to a key from the organisation's settings (Developer API), then restart the server.";
    case 'API_KEY_SCOPE_MISSING':
      return `The API key lacks a scope ${tool} needs: ${scopes}. Create a key with ${needs.scopes.length > 1 ? 'these scopes' : 'this scope'} (organisation settings, Developer API) and set it as SVC_API_KEY.`;
    case 'FEATURE_NOT_IN_PLAN':
      return `The organisation's plan lacks a feature ${tool} needs${features ? ` (${features})` : ''}: an owner can change the plan; until then this tool cannot run.`;
    case 'SITE_NOT_FOUND':
      return 'Pages must be on a site registered (and, for check_pages, verified) in the organisation, at an address the service can reach: it checks pages from its own network, so never localhost or a private preview. list_sites lists the sites and their root URLs.';
    case 'DOMAIN_NOT_VERIFIED':
      return 'check_pages needs a verified site: list_sites shows which are (verified: true). scan_page checks one page of an unverified site.';
    case 'RATE_LIMITED':
      return `The key's request rate is used up; try again in ${error.headers.get('retry-after') ?? 'a few'} seconds.`;
    case 'SCAN_ALREADY_RUNNING':
      return 'A scan of this is already running: wait for it, then read its findings with get_findings.';
    case 'INVALID_URL':
    case 'VALIDATION_FAILED':
      return 'Fix the input the service named and call the tool again.';
  }
  if (error.status === 403)
    return `The key or the plan lacks what ${tool} needs: the scope ${scopes}${features ? `, the plan feature ${features}` : ''}.`;
  if (error.status === 404)
    return error.problem?.code === undefined
      ? "The answer is not the API's (no problem code): is SVC_BASE_URL the service's API address?"
      : 'The id is not known to the service in this organisation: take it from a result of check_pages, scan_page or list_sites.';
  if (error.status >= 500) return 'The service failed; try again later, quoting the traceId to support if it persists.';
  return undefined;
}
