// The two shared mechanisms of every asynchronous job: wait for an existing one, or start one and wait.
import { APIPromise } from '../core/api-promise.js';
import { ResponseValidationError } from '../core/errors.js';
import type { Inputs, Operation, OperationId, PolledOperationId, SuccessBody } from '../core/operations.js';
import { type PollOnce, pollUntilTerminal, resolveLocation, type WaitOptions } from '../wait/polling.js';
import { parseRetryAfter } from '../core/retry-after.js';
import type { Transport } from './transport.js';
import { brokenRule, validateRequest } from '../validation/validation.js';

type Job = { id?: unknown; status?: unknown };

/** Polls `getOp` for job `id` until it is terminal. */
export function waitForJob<G extends PolledOperationId>(
  t: Transport,
  getOp: Operation<G>,
  id: string,
  options?: WaitOptions<SuccessBody<G>>,
): APIPromise<SuccessBody<G>> {
  const last: Last = {};
  return waited(
    last,
    pollUntilTerminal<SuccessBody<G> & Job>(
      getOp.id,
      async () => {
        // A bad id fails now (as a rejection, like every other failure), not after the first interval.
        await validateRequest(getOp.schemas.path, { id });
        return { jobId: id, pollOnce: poller(t, getOp, id, undefined, last) };
      },
      options,
      t.observe,
    ),
  );
}

/**
 * Starts a job with `createOp`, then polls the resource named by the 202's `Location` (when it is a resource
 * of this API), else `getOp` on the returned id; the wait's deadline and signal cover the create request too.
 */
export function startAndWait<C extends OperationId, G extends PolledOperationId>(
  t: Transport,
  createOp: Operation<C>,
  input: NoInfer<Inputs[C]>,
  getOp: Operation<G>,
  options?: WaitOptions<SuccessBody<G>>,
): APIPromise<SuccessBody<G>> {
  const last: Last = {};
  const polled = pollUntilTerminal<SuccessBody<G> & Job>(
    getOp.id,
    async (signal) => {
      const sent = await t.send(createOp, input, { signal });
      const id = (sent.data as Job).id;
      // The POST was sent and accepted: an id that cannot be polled is the answer's fault, not the input's.
      const broken =
        typeof id === 'string' ? await brokenRule(getOp.schemas.path, { id }) : { field: 'id', rule: 'is required' };
      if (broken || typeof id !== 'string') {
        throw new ResponseValidationError(
          createOp.id,
          `body.${broken?.field ?? 'id'}`,
          `${broken?.rule ?? 'is invalid'}; the request was sent and accepted, so the job may exist`,
        );
      }
      const url = resolveLocation(sent.response.headers.get('location'), sent.requestUrl, t.options.baseUrl);
      return {
        jobId: id,
        pollOnce: poller(t, getOp, id, url, last),
        delayFirstPoll: true,
        retryAfterMs: hintOf(sent.response),
        status: (sent.data as Job).status,
      };
    },
    options,
    t.observe,
  );
  return waited(last, polled);
}

// The last poll's answer, kept for `.withResponse()`: a wait returns only once a poll saw a terminal status.
type Last = { response?: Response };
const waited = <T>(last: Last, polled: Promise<T>) =>
  new APIPromise(polled.then((data) => ({ data, response: last.response! })));

/** One poll of job `id` (at `url` when the 202 named one), refusing an answer about another job. */
function poller<G extends PolledOperationId>(
  t: Transport,
  getOp: Operation<G>,
  id: string,
  url: string | undefined,
  last: Last,
): PollOnce<SuccessBody<G> & Job> {
  return async (signal) => {
    const sent = await t.send(getOp, { path: { id } }, { signal, url });
    last.response = sent.response;
    const resource = sent.data as SuccessBody<G> & Job;
    if (!sameId((sent.data as Job | undefined)?.id, id))
      throw new ResponseValidationError(getOp.id, 'body.id', `must be the polled job's id ${id}`);
    return { resource, retryAfterMs: hintOf(sent.response) };
  };
}

// Job ids are UUIDs, and UUIDs compare case-insensitively (RFC 9562 §4): an id echoed in upper case is the same job.
function sameId(answered: unknown, id: string): boolean {
  return typeof answered === 'string' && answered.toLowerCase() === id.toLowerCase();
}

function hintOf(response: Response): number | undefined {
  return parseRetryAfter(response.headers.get('retry-after'));
}
