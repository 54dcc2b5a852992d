// Why a job failed, read the same way for every job kind. The document gives each kind its own fields: a CI
// check a `failureReason` string, a scan or scan run a `failureReason` object with `code` and `reason`, a
// journey run `failureReasonCode`, `failureReasonText` and `failedStepIndex`, a fix verification
// `failureReasonCode`. Printing the wrong one gives `[object Object]` or `undefined`.

/** Why a job failed, whatever its kind. */
export interface JobFailure {
  /** The service's code (scans, scan runs, journey runs, fix verifications), when it gives one. */
  code?: string | undefined;
  /** The service's words (CI checks, scans, scan runs, journey runs), when it gives them. */
  reason?: string | undefined;
  /** The journey step that failed, as the service numbers it (`failedStepIndex`, journey runs only). */
  stepIndex?: number | undefined;
  /** `code: reason`, or the one of them given: ready to print. */
  message: string;
}

/**
 * Why `job` failed, from whichever failure fields its kind carries; `undefined` when it carries none (a job
 * that did not fail, or a failure the service gave no reason for). Fields of an unexpected type are ignored,
 * so it never throws and never prints `[object Object]`.
 * @param job any job resource: a CI check, scan, scan run, journey run or fix verification
 * @example
 * const scan = await client.scans.createAndWait({ url: 'https://shop.example.com/' });
 * if (scan.status === 'FAILED') console.error(`scan failed: ${failureOf(scan)?.message ?? 'no reason given'}`);
 */
export function failureOf(job: unknown): JobFailure | undefined {
  const fields = (job && typeof job === 'object' ? job : {}) as Record<string, unknown>;
  const nested = (
    fields.failureReason && typeof fields.failureReason === 'object' ? fields.failureReason : {}
  ) as Record<string, unknown>;
  const code = text(nested.code) ?? text(fields.failureReasonCode);
  const reason = text(nested.reason) ?? text(fields.failureReason) ?? text(fields.failureReasonText);
  const stepIndex = Number.isInteger(fields.failedStepIndex) ? (fields.failedStepIndex as number) : undefined;
  if (!code && !reason) return undefined;
  return { code, reason, stepIndex, message: code && reason ? `${code}: ${reason}` : (code ?? reason)! };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
