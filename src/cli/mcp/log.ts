// The server's log: stderr, as every command writes it (each line redacted and guarded by the Output), and the same
// lines as MCP log notifications once a client is connected: the client's debug lines (SVC_LOG / --verbose), its
// warnings, and each failed tool call.
import { type CliIO, Output } from '../io/output.js';

/** The levels of MCP log notifications the server sends (RFC 5424 names, as the protocol uses them). */
type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/** Where log lines go besides stderr: set once the server is connected. */
export interface LogSink {
  send?: ((level: LogLevel, line: string) => void) | undefined;
}

// The prefixes of the CLI's stderr lines (context.ts's logger, printError): the level of a notification.
const PREFIX = /^(debug|info|warning|error): /;

/**
 * An Output like `out` (same streams, environment and secrets) whose stderr lines also go to `sink`. Lines reach the
 * sink as written to stderr: already redacted.
 * @example const sink: LogSink = {}; const logged = teeToLog(ctx.out, sink); sink.send = (level, line) => …;
 */
export function teeToLog(out: Output, sink: LogSink): Output {
  const stderr = out.io.stderr;
  const io: CliIO = {
    ...out.io,
    stderr: {
      write(text: string) {
        const written = stderr.write(text);
        for (const line of text.split('\n').filter((l) => l.trim()))
          sink.send?.((PREFIX.exec(line)?.[1] as LogLevel | undefined) ?? 'info', line.replace(PREFIX, ''));
        return written;
      },
    },
  };
  const teed = new Output(io);
  for (const secret of out.secrets) teed.protect(secret);
  return teed;
}
