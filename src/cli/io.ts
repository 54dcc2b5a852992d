// The CLI's view of its process: streams, environment and terminal, injectable for tests. Every write goes
// through redaction, so a secret can never reach stdout or stderr, whatever the code path.
import { redact } from '../internal/redact.js';

/** Streams and environment of one CLI run. */
export interface CliIO {
  /** Report output only (a report, a table, JSON). */
  stdout: { write(text: string): unknown; isTTY?: boolean };
  /** Progress, warnings and errors. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Standard input, for `webhook verify`. */
  stdin?: AsyncIterable<Uint8Array | string>;
}

/** Output helpers bound to one run: redacting, colour-aware. */
export class Output {
  readonly #secrets: string[] = [];
  constructor(readonly io: CliIO) {}

  /** Registers a value that must never be printed (API key, webhook secret). */
  protect(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.push(secret);
  }

  /** Writes report output to stdout. */
  out(text: string): void {
    this.io.stdout.write(this.#clean(text));
  }

  /** Writes a line to stderr. */
  err(text: string): void {
    this.io.stderr.write(this.#clean(text.endsWith('\n') || text.endsWith('\r') || text.startsWith('\r') ? text : `${text}\n`));
  }

  /** Colour only on a terminal, and never with NO_COLOR set (https://no-color.org). */
  get color(): boolean {
    return Boolean(this.io.stdout.isTTY) && !('NO_COLOR' in this.io.env && this.io.env.NO_COLOR !== '');
  }

  #clean(text: string): string {
    let result = text;
    for (const secret of this.#secrets) result = redact(result, secret);
    return result;
  }
}
