// The command guard of Output: no line the CLI writes, on stdout or stderr, may be run by a CI runner as a
// workflow command (`::cmd::` at a line start for GitHub Actions, `##[cmd]` and Azure's `##vso[cmd]` anywhere),
// except the annotations written through Output.annotation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CliIO, CommandGuard, NEUTRALISER, Output } from '../../src/cli/io/output.js';
import type { CiReport } from '../../src/cli/report/index.js';
import { adversarialReport, failReport, v } from './reporters/fixtures.js';
import { annotationsOf, junitOf, markdownOf, sarifOf, textOf } from '../support/reports.js';

// .NET's Char.IsWhiteSpace, which the runner's TrimStart() removes before it looks for `::`.
const DOTNET_BLANKS = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*/;

/**
 * The commands CI runners would run from a captured stream: lines as .NET's ReadLine splits them (\n, \r, \r\n);
 * GitHub's v2 syntax after TrimStart, its v1 `##[` and Azure's `##vso[` anywhere. The runner matches
 * culture-sensitively, which also skips characters ICU ignores (zero-width ones), but a command only parses when its
 * prefix is there character for character (the runner cuts the command name at a fixed offset), so the ordinal
 * matching here finds every line the runner would run, given that NEUTRALISER is neither ignorable nor a blank
 * (checked below).
 */
function commandsIn(stream: string): string[] {
  return stream.split(/\r\n|\r|\n/).filter((line) => {
    const trimmed = line.replace(DOTNET_BLANKS, '');
    return /^::[A-Za-z-]/.test(trimmed) || line.includes('##[') || line.includes('##vso[');
  });
}

function capture(isTTY = false) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIO = {
    stdout: { write: (t: string) => stdout.push(t), isTTY },
    stderr: { write: (t: string) => stderr.push(t), isTTY },
    env: {},
  };
  return {
    out: new Output(io),
    stdout: () => stdout.join(''),
    stderr: () => stderr.join(''),
    stdoutChunks: stdout,
    stderrChunks: stderr,
  };
}

// Hostile text: a command after every line break and blank the runners know, split or not.
const HOSTILE = [
  '::stop-commands::pwned',
  '\n::error title=x::injected',
  '\r\n::set-output name=verdict::PASS',
  '\r::add-mask::x',
  '\n  \t::warning::indented',
  '\n\u00A0\u2028\u3000\u0085\v\f\uFEFF::notice::unicode blanks',
  '\nsome text ##[stop-commands]tok and ##[error]x',
  '\n##vso[task.setvariable variable=X]1 and ##VSO[task.complete result=Succeeded]',
  '\n###[error]more hashes',
  '\n',
];

describe('CommandGuard', () => {
  it('breaks `::` at a line start (after any .NET blank), and `##[` / `##vso[` anywhere', () => {
    const g = new CommandGuard();
    const out = g.guard(HOSTILE.join(''));
    // Eight commands for the runner; the U+FEFF line is not one (TrimStart keeps U+FEFF, and then the command name
    // would start at its second colon) but is guarded all the same.
    expect(commandsIn(HOSTILE.join(''))).toHaveLength(8);
    expect(commandsIn(out)).toEqual([]);
    expect(out).toContain(`\uFEFF:${NEUTRALISER}:notice`);
    expect(out).toContain(`:${NEUTRALISER}:stop-commands::pwned`);
    expect(out).toContain(`\n  \t:${NEUTRALISER}:warning::indented`);
    expect(out).toContain(`##${NEUTRALISER}[stop-commands]tok`);
    expect(out).toContain(`##vso${NEUTRALISER}[task.setvariable`);
    expect(out).toContain(`##VSO${NEUTRALISER}[task.complete`);
    // Removing the inserted character gives the text back: nothing else changes.
    expect(out.replaceAll(NEUTRALISER, '')).toBe(HOSTILE.join(''));
  });

  it('leaves ordinary text alone', () => {
    const texts = [
      'Accessibility check: FAIL\n  color-contrast a.btn :: not a command\n',
      'a::b\n: :x\n:x\n#[x\n# #[x\nhttps://shop.example.com:8443/x\n',
      '{\n  "ruleId": "::x",\n  "n": 1\n}\n',
      '| a | b |\n|---|---|\n',
      '\r\x1b[2KRUNNING  pages 1/2  0.5s\r',
    ];
    const g = new CommandGuard();
    for (const text of texts) expect(g.guard(text)).toBe(text);
  });

  it('gives the same result however the text is split into writes', () => {
    const whole = HOSTILE.join('');
    const expected = new CommandGuard().guard(whole);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: whole.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set([0, ...cuts, whole.length])].sort((a, b) => a - b);
        const g = new CommandGuard();
        let out = '';
        for (let i = 1; i < points.length; i++) out += g.guard(whole.slice(points[i - 1], points[i]));
        expect(out).toBe(expected);
      }),
      { numRuns: 500 },
    );
    // The classic splits, one character at a time included.
    for (const parts of [
      [':', ':stop-commands::x'],
      ['  ', '::x::y'],
      ['##', '[error]x'],
      ['##v', 'so[x]'],
      ['#', '#', '[', 'x]'],
    ]) {
      const g = new CommandGuard();
      expect(commandsIn(parts.map((p) => g.guard(p)).join(''))).toEqual([]);
    }
  });

  it('never lets a random text through as a command, and only ever inserts the neutraliser', () => {
    const pieces = fc.constantFrom(
      ':',
      '::',
      '#',
      '##',
      '[',
      'vso',
      'VsO',
      'stop-commands',
      'error',
      ' ',
      '\t',
      '\u00A0',
      '\u2028',
      '\uFEFF',
      '\n',
      '\r',
      '\r\n',
      'x',
      '😀',
      '\uD800',
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(pieces, { maxLength: 12 }).map((a) => a.join('')),
          { maxLength: 8 },
        ),
        (chunks) => {
          const g = new CommandGuard();
          const out = chunks.map((c) => g.guard(c)).join('');
          expect(commandsIn(out)).toEqual([]);
          expect(out.replaceAll(NEUTRALISER, '')).toBe(chunks.join(''));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('inserts a character that is no blank to TrimStart and that ICU collation does not ignore (a zero-width space would be)', () => {
    expect(/\p{White_Space}/u.test(NEUTRALISER)).toBe(false);
    expect(NEUTRALISER.replace(DOTNET_BLANKS, '')).toBe(NEUTRALISER);
    // The runner's StartsWith("::") / IndexOf("##[") are culture-sensitive (ICU on Linux): ignorable characters
    // match as nothing. Intl.Collator is the same ICU collation.
    const collator = new Intl.Collator('en', { sensitivity: 'variant' });
    expect(collator.compare(`:${NEUTRALISER}:`, '::')).not.toBe(0);
    expect(collator.compare(`##${NEUTRALISER}[`, '##[')).not.toBe(0);
    expect(collator.compare(':\u200B:', '::')).toBe(0);
  });
});

describe('Output: every write is guarded, on stdout and stderr', () => {
  it('out(): a JUnit, text, markdown or JSON report of hostile findings prints no command', () => {
    const summary = HOSTILE.join('');
    const report: CiReport = {
      check: { ...adversarialReport().check, failureReason: summary },
      violations: [
        v({
          ruleId: summary,
          target: summary,
          failureSummary: summary,
          impact: 'critical',
          url: `https://a.example/${summary}`,
        }),
      ],
    };
    for (const text of [
      junitOf(report),
      textOf(report, { color: false }),
      markdownOf(report),
      `${JSON.stringify(report, null, 2)}\n`,
      JSON.stringify(sarifOf(report, { toolVersion: '0.0.0' })),
    ]) {
      const { out, stdout } = capture();
      out.out(text);
      expect(commandsIn(stdout())).toEqual([]);
    }
    // JUnit escapes commands itself (losslessly, as character references): stdout is the report, byte for byte.
    const { out, stdout } = capture();
    out.out(junitOf(report));
    expect(stdout()).toBe(junitOf(report));
  });

  it('out(): tracks the line start across writes', () => {
    const { out, stdout } = capture();
    out.out('report line\n  ');
    out.out(':');
    out.out(':stop-commands::tok\n');
    out.out('##');
    out.out('[error]x\n');
    expect(commandsIn(stdout())).toEqual([]);
    expect(stdout()).toBe(`report line\n  :${NEUTRALISER}:stop-commands::tok\n##${NEUTRALISER}[error]x\n`);
  });

  it('err(): error messages and progress carrying API text print no command', () => {
    const { out, stderr } = capture();
    out.err(`error: API answered 400 — bad: ${HOSTILE.join('')}`);
    out.err('::stop-commands::tok');
    out.err('\r');
    out.err('::error::after a bare carriage return');
    expect(commandsIn(stderr())).toEqual([]);
    expect(stderr()).toContain(`\n:${NEUTRALISER}:stop-commands::tok\n`);
  });

  it('annotation(): writes the annotations of toGitHubAnnotations as commands, each on a line of its own', () => {
    const { out, stderr } = capture(true);
    const report = failReport();
    report.violations[0]!.failureSummary = HOSTILE.join('');
    report.violations[0]!.impact = 'critical';
    const lines = annotationsOf(report);
    out.err('\r\x1b[2K'); // Progress.done() on a terminal: the stream is left mid-line
    for (const line of lines) out.annotation(line);
    const written = stderr();
    // Written as they are, but for `##[` / `##vso[` (a v1 or Azure command inside the message), broken as everywhere.
    const expected = lines.map((l) => l.replace(/##(vso)?\[/gi, (m) => `${m.slice(0, -1)}${NEUTRALISER}[`));
    expect(expected.join('\n')).toContain(`##${NEUTRALISER}[stop-commands]`);
    expect(commandsIn(written)).toEqual(expected);
    expect(written).toBe(`\r\x1b[2K\n${expected.join('\n')}\n`);
    expect(lines.some((l) => l.includes('stop-commands'))).toBe(true); // escaped inside the message, harmless
  });

  it('annotation(): anything but a one-line error/warning/notice is guarded like err()', () => {
    const { out, stderr } = capture();
    out.annotation('::stop-commands::tok');
    out.annotation('::set-output name=verdict::PASS');
    out.annotation('::error::one\n::stop-commands::two');
    out.annotation('::error::one\r::add-mask::two');
    out.annotation('  ::error::indented');
    out.annotation('text ##[error]x');
    expect(commandsIn(stderr())).toEqual([]);
    out.annotation('::notice::ok\n');
    expect(commandsIn(stderr())).toEqual(['::notice::ok']);
    out.annotation('::warning title=t::x ##vso[task.setvariable variable=a]b ##[error]c');
    expect(
      stderr().endsWith(
        `::warning title=t::x ##vso${NEUTRALISER}[task.setvariable variable=a]b ##${NEUTRALISER}[error]c\n`,
      ),
    ).toBe(true);
  });

  it('redacts before guarding, so a secret that contains a command prefix is never half printed', () => {
    const { out, stdout, stderr } = capture();
    const secret = 'sk_##[live]::key';
    out.protect(secret);
    out.out(`key=${secret}\n::x ${secret}\n`);
    out.annotation(`::error::leaked ${secret}`);
    expect(stdout()).toBe(`key=[redacted]\n:${NEUTRALISER}:x [redacted]\n`);
    expect(stderr()).toBe('::error::leaked [redacted]\n');
  });

  it('redacts the user:password@ of every URL, on both streams and in scrub(), and nothing that only looks like one', () => {
    const { out, stdout, stderr } = capture();
    const cases: Array<[string, string]> = [
      ['https://deploy:s3cret@staging.example.com/a', 'https://[redacted]@staging.example.com/a'],
      ['http://token@host:8080', 'http://[redacted]@host:8080'],
      ['redis://:pw%40x@127.0.0.1:6379/0', 'redis://[redacted]@127.0.0.1:6379/0'],
      // Markdown's escapes and XML's entities stay inside the userinfo they came from.
      ['https://u:p\\_w\\*@h/', 'https://[redacted]@h/'],
      ['https://u:a&amp;b@h/', 'https://[redacted]@h/'],
      ['HTTPS://U:P@H', 'HTTPS://[redacted]@H'],
      // What URL parsers take unencoded in userinfo: a raw @ (the last one ends it), ^ { } | `, non-ASCII.
      ['https://deploy:p@ss@h/a', 'https://[redacted]@h/a'],
      ['https://u:{p|^`}@h', 'https://[redacted]@h'],
      ['https://jörg:pässwört@h/', 'https://[redacted]@h/'],
      ['https://@h/', 'https://[redacted]@h/'],
      ['URL=see_https://u:p@h', 'URL=see_https://[redacted]@h'],
      // Not userinfo: an @ in the path or query, e-mail addresses, an @ past the end of a JSON string.
      ['https://host/@user?by=a@b', 'https://host/@user?by=a@b'],
      ['mail ops@example.com, see https://example.com', 'mail ops@example.com, see https://example.com'],
      ['{"url":"https://host","email":"a@b"}', '{"url":"https://host","email":"a@b"}'],
      ['<a href="https://host">x@y</a>', '<a href="https://host">x@y</a>'],
      ['https://host a@b', 'https://host a@b'],
    ];
    for (const [input, expected] of cases) {
      out.out(`${input}\n`);
      out.err(input);
      expect(out.scrub(input), input).toBe(expected);
    }
    const lines = cases.map(([, expected]) => `${expected}\n`).join('');
    expect(stdout()).toBe(lines);
    expect(stderr()).toBe(lines);
  });

  // With an unbounded scheme the pattern backtracks quadratically here (~10¹¹ steps: the test would time out).
  it('redacts URL credentials after a long run of scheme-like characters without backtracking over it', () => {
    const { out } = capture();
    const text = `${'a.'.repeat(200_000)}://${'b'.repeat(200_000)} https://u:p@h`;
    expect(out.scrub(text).endsWith('https://[redacted]@h')).toBe(true);
  });

  it('keeps the two streams apart: a partial line on stdout does not hide a line start on stderr', () => {
    const { out, stdout, stderr } = capture();
    out.out('no newline yet');
    out.err('::stop-commands::tok');
    out.out('::still mid-line on stdout\n');
    expect(stderr()).toBe(`:${NEUTRALISER}:stop-commands::tok\n`);
    expect(stdout()).toBe('no newline yet::still mid-line on stdout\n');
  });

  it('guards 1 MB of output in well under a second', () => {
    const big = `${'line of report text ## [ : \n'.repeat(30_000)}::x\n`;
    const { out, stdout } = capture();
    const start = performance.now();
    out.out(big);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(stdout().endsWith(`:${NEUTRALISER}:x\n`)).toBe(true);
  });
});
