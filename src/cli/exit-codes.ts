// The CLI's documented exit codes.

/** Exit codes of `svc-a11y`. */
export const ExitCode = {
  /** Success; a CI check's verdict is PASS. */
  OK: 0,
  /** A CI check's verdict is FAIL (or a webhook delivery failed verification). */
  VERDICT_FAIL: 1,
  /** Usage or configuration error (bad arguments, missing API key or base URL). */
  USAGE: 2,
  /** The API answered with an error (its problem code, title and traceId are printed), or could not be reached. */
  API_ERROR: 3,
  /** The job ended FAILED, a page was UNREACHABLE/ERROR/TIMEOUT, or the wait timed out. */
  INCOMPLETE: 4,
  /** An internal error: a bug of the CLI (please report it), never a verdict. */
  INTERNAL: 70,
} as const;

/**
 * What an exit code that is not a verdict means, in words for a program that reports it (the GitHub Action's
 * failed step); a FAIL (1) and a run not judged (4) are told by their report.
 * @example EXIT_MEANINGS[3] // 'the service answered with an error or could not be reached'
 */
export const EXIT_MEANINGS: Readonly<Record<number, string>> = {
  2: 'an input, the config file or a report path was refused (the inputs are the CLI flags of the same name)',
  3: 'the service answered with an error or could not be reached',
  70: 'an internal error (a bug: please report it)',
};

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A usage or configuration error: exit code 2 with a usage hint, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** @param command - the command whose help to point at, if any */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/**
 * An error of the service's said in the CLI's words too: reported as `cause` is (its kind and exit code, its facts),
 * with `message` after them, naming what the user asked for (a journey id) and what to do.
 * @example throw new ExplainedError(`journey ${id} was not found`, apiError);
 */
export class ExplainedError extends Error {
  override name = 'ExplainedError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}
