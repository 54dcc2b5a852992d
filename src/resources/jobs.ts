// The two shared mechanisms of every asynchronous job: wait for an existing one, or start one and wait.
import type { Operation, OperationId, OperationInput, SuccessBody } from '../operations.js';
import { type Polled, pollUntilTerminal, resolveLocation, type WaitOptions } from '../polling.js';
import { parseRetryAfter } from '../retry-after.js';
import type { Sent, Transport } from '../transport.js';
import { validateRequest } from '../validation.js';

type Job = { status?: unknown };

/** Polls `getOp` for job `id` until it is terminal. */
export async function waitForJob<G extends OperationId>(t: Transport, getOp: Operation<G>, id: string, options?: WaitOptions<SuccessBody<G>>) {
  // A bad id fails now (as a rejection, like every other failure), not after the first interval.
  validateRequest(getOp.schemas.path, { id });
  return pollUntilTerminal<SuccessBody<G> & Job>(id, getOp.id, async (signal) => polled(await t.send(getOp, { path: { id } }, { signal })), options);
}

/**
 * Starts a job with `createOp`, then polls the resource named by the 202's `Location` (resolved against the
 * request URL), falling back to `getOp` on the returned id.
 */
export async function startAndWait<C extends OperationId, G extends OperationId>(
  t: Transport,
  createOp: Operation<C>,
  input: OperationInput,
  getOp: Operation<G>,
  options: WaitOptions<SuccessBody<G>> = {},
) {
  const sent = await t.send(createOp, input, { signal: options.signal });
  const id = String((sent.data as { id?: unknown }).id);
  const url = resolveLocation(sent.response.headers.get('location'), sent.requestUrl, t.options.baseUrl);
  const pollOnce = async (signal: AbortSignal) =>
    polled(url ? await t.getUrl(getOp, url, { signal }) : await t.send(getOp, { path: { id } }, { signal }));
  return pollUntilTerminal<SuccessBody<G> & Job>(id, getOp.id, pollOnce, options, { delay: true, retryAfterMs: hintOf(sent.response) });
}

/** A poll's answer with the server's `Retry-After` hint, if it gave one. */
function polled<O extends OperationId>(sent: Sent<O>): Polled<SuccessBody<O> & Job> {
  return { resource: sent.data as SuccessBody<O> & Job, retryAfterMs: hintOf(sent.response) };
}

function hintOf(response: Response): number | undefined {
  return parseRetryAfter(response.headers.get('retry-after'));
}
