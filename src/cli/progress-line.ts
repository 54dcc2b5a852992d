// Progress on stderr: a live line on a terminal, one line per change otherwise (CI logs). stdout stays the report's.
import type { Output } from './io/output.js';

/** Something a job reports while it runs. */
export interface ProgressState {
  status: string;
  /** e.g. `pages 3/5` */
  detail?: string | undefined;
}

/** Shows job progress on stderr. */
export class Progress {
  readonly #started = Date.now();
  #last = '';
  #live = false;

  /**
   * @param output - where to write
   * @param enabled - false with `--no-progress`, `--quiet` or `--json`
   */
  constructor(
    readonly output: Output,
    readonly enabled: boolean,
  ) {}

  /** Reports the current state; repeated identical states print nothing in line mode. */
  update(state: ProgressState): void {
    if (!this.enabled) return;
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    const text = `${state.status}${state.detail ? `  ${state.detail}` : ''}`;
    if (this.output.io.stderr.isTTY) {
      this.output.err(`\r\x1b[2K${text}  ${seconds}s\r`);
      this.#live = true;
    } else if (text !== this.#last) {
      this.output.err(`[${seconds}s] ${text}`);
    }
    this.#last = text;
  }

  /** Ends the live line so later output starts on a clean line. */
  done(): void {
    if (this.#live) this.output.err('\r\x1b[2K');
    this.#live = false;
  }
}
