// The two shared mechanisms of every asynchronous job: wait for an existing one, or start one and wait.
import type { Operation, OperationId, OperationInput, SuccessBody } from '../operations.js';
import { pollUntilTerminal, resolveLocation, type WaitOptions } from '../polling.js';
import type { Transport } from '../transport.js';
import { validateRequest } from '../validation.js';

type Job = { status?: unknown };

/** Polls `getOp` for job `id` until it is terminal. */
export function waitForJob<G extends OperationId>(t: Transport, getOp: Operation<G>, id: string, options?: WaitOptions<SuccessBody<G>>) {
  // A bad id fails now, not after the first interval.
  validateRequest(getOp.schemas.path, { id });
  return pollUntilTerminal<SuccessBody<G> & Job>(id, getOp.id, (signal) => t.request(getOp, { path: { id } }, { signal }), options);
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
  const pollOnce = url
    ? (signal: AbortSignal) => t.getUrl(getOp, url, { signal })
    : (signal: AbortSignal) => t.request(getOp, { path: { id } }, { signal });
  return pollUntilTerminal<SuccessBody<G> & Job>(id, getOp.id, pollOnce, options, true);
}
