// What the client's modules tell the observer (the lazily loaded `instrument.ts`): plain records, built where
// things happen, formatted and redacted only in the observer's chunk, so the root bundle carries none of it.
import type { Outcome } from './retry.js';
import type { LogLevel } from './callbacks.js';

/** Method and URL of a request as errors show them (no userinfo, no key). */
export interface RequestInfo {
  readonly method: string;
  readonly url: string;
}

/** One event of a client's life, from the module where it happens. */
export type Observed =
  /** An attempt is about to be sent: `headers` is what goes out (hooks may edit it in place). */
  | {
      e: 'request';
      op: string;
      info: RequestInfo;
      url: string;
      headers: Record<string, string>;
      attempt: number;
    }
  /** An attempt's answer came in; `hook` is what the request event resolved with; `end` frees the attempt. */
  | { e: 'response'; hook: unknown; response: Response; ms: number; end: () => void }
  /** An attempt failed and is re-sent after `ms`. */
  | { e: 'retry'; info: RequestInfo; attempt: number; outcome: Outcome; ms: number }
  /** A call began at `at` (ms since the epoch); `sent` settles with its answer or its error. */
  | { e: 'done'; op: string; sent: Promise<{ response: Response }>; at: number }
  /**
   * A poll's decision: the status seen (`terminal` when done) or the `error` outlived, and the wait before the
   * next poll (`ms`), from the server's hint (`hint`), the progress estimate (`planned`) or backoff.
   */
  | {
      e: 'poll';
      op: string;
      job: string | undefined;
      n: number;
      resource?: unknown;
      terminal?: boolean;
      error?: unknown;
      hint?: number | undefined;
      planned?: number | undefined;
      ms?: number;
    }
  /** A line written by a lazily loaded module (the rate budget, its store guard). */
  | { e: 'log'; level: Exclude<LogLevel, 'off'>; text: string };

/** Hands an event to the observer; resolves with its answer (the hook context of a `request`). */
export type Observe = (event: Observed) => Promise<unknown>;
