// The CLI's view of its process: streams, environment and terminal, injectable for tests. Every write goes
// through redaction, so a secret can never reach stdout or stderr, whatever the code path, and through the
// command guard below, so text from the API can never be run by the CI system reading the log.
import { guardDocument, type Syntax } from './document-guard.js';

// CI runners read a step's stdout and stderr line by line (.NET `ReadLine`: a line ends at \n, \r or \r\n) and
// run some lines as commands:
// - GitHub Actions (actions/runner, ActionCommand.TryParseV2): a line that, after `TrimStart()`, starts with `::`
//   — `::stop-commands::TOKEN` turns every later command off, including the CLI's own annotations;
// - GitHub Actions, older syntax (ActionCommand.TryParse): `##[command]` anywhere in a line;
// - Azure Pipelines (Agent Command.TryParse): `##vso[area.action]` anywhere in a line, e.g. `task.setvariable`.
// The guard inserts NEUTRALISER between the two colons of a `::` that begins a line (after blanks), and before the
// `[` of `##[` and `##vso[`, in every chunk of every stream; only `Output.annotation` writes a command line as it is.
// The blanks are those .NET's TrimStart removes (Char.IsWhiteSpace), plus U+FEFF. The inserted character must be
// neither one of them (a space would be trimmed) nor a character ICU collation ignores: the runner compares with
// culture-sensitive StartsWith/IndexOf, which skip zero-width characters (U+200B, U+200D, U+2060, U+FEFF …), so a
// zero-width space would not reliably break the match. U+2800 BRAILLE PATTERN BLANK has a collation weight, is no
// .NET whitespace, and shows as a blank.

/** The character the command guard inserts (U+2800 BRAILLE PATTERN BLANK). */
export const NEUTRALISER = '\u2800';

const BLANKS = new Set(
  [
    ...'\t\v\f \u0085\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF',
  ].map((c) => c.charCodeAt(0)),
);
// Characters a log viewer may drop before a reader (or a runner after it) sees the line: format characters
// (Unicode Cf: zero-width space and joiners, bidi marks, soft hyphen, word joiner, BOM, tags) and the other
// default-ignorable code points. The guard looks through them, so `\u200B::`, `:\u200B:` and `#\u200B#[` are
// caught as `::` and `##[`.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible character is matched on its own.
const IGNORABLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0]/u;
// U+E0000–U+E0FFF (tags, variation selectors supplement) arrive as \uDB40–\uDB43 and a low surrogate.
const isIgnorable = (c: number, text: string, i: number): boolean =>
  c < 0xad
    ? false
    : (c >= 0xdb40 && c <= 0xdb43) ||
      (c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xdb40 && text.charCodeAt(i - 1) <= 0xdb43) ||
      IGNORABLE.test(text[i]!);
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const HASH = 0x23;
const BRACKET = 0x5b;

/**
 * The command guard of one output stream. It keeps its state between chunks, so a command split over several
 * writes (`':'` then `':stop-commands::x'`, or `'##'` then `'[error]'`) is caught as if written at once, and the
 * result does not depend on how the text was chunked.
 */
export class CommandGuard {
  // Line: 0 = only blanks since the line began, 1 = blanks then one `:`, 2 = anything else.
  #line = 0;
  // `##[` / `##vso[`: 0 = none, 1 = `#`, 2 = `##` (or more), 3 = `##v`, 4 = `##vs`, 5 = `##vso` (letters in any case).
  #hash = 0;

  /** Whether the stream is at the start of a line (nothing, or only blanks, written since the last line break). */
  get atLineStart(): boolean {
    return this.#line === 0;
  }

  /** `text` with every line-start `::`, `##[` and `##vso[` broken by {@link NEUTRALISER}. */
  guard(text: string): string {
    let out = '';
    let from = 0;
    let changed = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (isIgnorable(c, text, i)) continue;
      let insert = false;
      if (c === LF || c === CR) this.#line = 0;
      else if (this.#line === 0) this.#line = c === COLON ? 1 : BLANKS.has(c) ? 0 : 2;
      else if (this.#line === 1) {
        insert = c === COLON;
        this.#line = 2;
      }
      if (c === HASH) this.#hash = this.#hash === 1 || this.#hash === 2 ? 2 : 1;
      else if (c === BRACKET) {
        insert ||= this.#hash === 2 || this.#hash === 5;
        this.#hash = 0;
      } else {
        const lower = c | 0x20;
        this.#hash =
          this.#hash === 2 && lower === 0x76
            ? 3
            : this.#hash === 3 && lower === 0x73
              ? 4
              : this.#hash === 4 && lower === 0x6f
                ? 5
                : 0;
      }
      if (insert) {
        out += text.slice(from, i) + NEUTRALISER;
        from = i;
        changed = true;
      }
    }
    return changed ? out + text.slice(from) : text;
  }

  /** Records text written past the guard (an intended command line), so the state stays that of the stream. */
  passed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.#line = c === LF || c === CR ? 0 : this.#line === 0 && BLANKS.has(c) ? 0 : 2;
      this.#hash = 0;
    }
  }
}

// The workflow commands the CLI itself writes (see report/annotations.ts): an annotation and nothing else.
const ANNOTATION = /^::(?:error|warning|notice)(?: [^\r\n]*)?::[^\r\n]*$/;

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

/** Output helpers bound to one run: redacting, command-guarded, colour-aware. */
export class Output {
  readonly #secrets: string[] = [];
  readonly #stdoutGuard = new CommandGuard();
  readonly #stderrGuard = new CommandGuard();
  readonly #errors: string[] = [];
  constructor(readonly io: CliIO) {}

  /**
   * Writes `error: message` (or `internal error: message`) to stderr (as {@link Output.err}) and keeps the message, as printed, for a program
   * running the CLI in process (`runCiCheck`'s `errors`): errors as data, not lines to pick out of the output.
   * @example ctx.out.error(`could not write the json report ${file} (ENOSPC)`)
   */
  error(message: string, label: 'error' | 'internal error' = 'error'): void {
    // An internal error keeps its label among the messages: a program tells a bug from a refusal by it.
    this.#errors.push(`${label === 'error' ? '' : `${label}: `}${this.#clean(message)}`);
    this.err(`${label}: ${message}`);
  }

  /** The messages {@link Output.error} printed, in order (redacted as printed). */
  get errors(): readonly string[] {
    return this.#errors;
  }

  /** Registers a value that must never be printed (API key, webhook secret). */
  protect(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.push(secret);
  }

  /** The protected values, for making data safe where it enters (see `prepareReport`). */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /**
   * Writes report output to stdout (secrets and URL credentials redacted inside the values of `syntax`, so a JSON
   * or XML document keeps its structure; command-guarded).
   * @default syntax 'text'
   * @example ctx.out.out(`${jsonText(value)}\n`, 'json')
   */
  out(text: string, syntax: Syntax = 'text'): void {
    this.io.stdout.write(this.#stdoutGuard.guard(this.#clean(text, syntax)));
  }

  /** Writes a line to stderr (redacted, command-guarded). */
  err(text: string): void {
    this.io.stderr.write(
      this.#stderrGuard.guard(
        this.#clean(text.endsWith('\n') || text.endsWith('\r') || text.startsWith('\r') ? text : `${text}\n`),
      ),
    );
  }

  /**
   * Writes one GitHub Actions annotation to stderr as a command the runner runs: `::error …::…`,
   * `::warning …::…` or `::notice …::…` on one line, as `toGitHubAnnotations` makes them (a trailing line break
   * is optional). The only way a line starting with `::` leaves the CLI. It starts a new line first if stderr is in
   * the middle of one. Anything else (another command, or text with a line break inside) goes through the guard
   * like `err`, so it is printed but never run. `##[` and `##vso[` inside the annotation are broken as everywhere.
   * @example for (const line of toGitHubAnnotations(report)) ctx.out.annotation(line);
   */
  annotation(command: string): void {
    const line = this.#clean(command.replace(/\r?\n$/, ''));
    if (!ANNOTATION.test(line)) {
      this.err(command);
      return;
    }
    const text = `${this.#stderrGuard.atLineStart ? '' : '\n'}${line.replace(/##(?:vso)?\[/gi, (m) => `${m.slice(0, -1)}${NEUTRALISER}[`)}\n`;
    this.#stderrGuard.passed(text);
    this.io.stderr.write(text);
  }

  /**
   * `text` with every protected secret, URL credential and credential-like query parameter redacted inside the
   * values of `syntax` (see `guardDocument`): for what the CLI writes to files.
   * @default syntax 'text'
   */
  scrub(text: string, syntax: Syntax = 'text'): string {
    return this.#clean(text, syntax);
  }

  /** Colour only on a terminal, and never with NO_COLOR set (https://no-color.org). */
  get color(): boolean {
    return Boolean(this.io.stdout.isTTY) && !('NO_COLOR' in this.io.env && this.io.env.NO_COLOR !== '');
  }

  #clean(text: string, syntax: Syntax = 'text'): string {
    return guardDocument(text, syntax, this.#secrets);
  }
}
