// Progress notifications of one tool call (MCP `notifications/progress`): sent only when the request carried a
// `progressToken`, and only when the value grew, because the protocol requires each one to increase.

/** Sends one progress notification; errors of a closed transport are the transport's to report. */
export type SendProgress = (params: {
  progressToken: string | number;
  progress: number;
  total?: number;
  message: string;
}) => Promise<void>;

/**
 * The `progress` of a tool's context for one request: a no-op without a token.
 * @example const progress = progressReporter(request.params._meta?.progressToken, send); progress(1, 3, '1 of 3 pages');
 */
export function progressReporter(
  token: string | number | undefined,
  send: SendProgress,
): (done: number, total: number | undefined, message: string) => void {
  let last = -1;
  return (done, total, message) => {
    if (token === undefined || !(done > last)) return;
    last = done;
    send({ progressToken: token, progress: done, ...(total === undefined ? {} : { total }), message }).catch(
      () => undefined,
    );
  };
}
