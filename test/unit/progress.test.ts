// Progress rendering: a live line on a terminal, one line per change otherwise, nothing when disabled.
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/cli/io/output.js';
import { Progress } from '../../src/cli/progress-line.js';

const capture = (isTTY: boolean) => {
  const written: string[] = [];
  const stream = { write: (t: string) => written.push(t), isTTY };
  return { written, out: new Output({ stdout: stream, stderr: stream, env: {} }) };
};

describe('Progress', () => {
  it('on a terminal: rewrites one live line with \\r and clears it when done', () => {
    const { written, out } = capture(true);
    const p = new Progress(out, true);
    p.update({ status: 'RUNNING', detail: 'pages 1/2' });
    p.update({ status: 'RUNNING', detail: 'pages 1/2' });
    p.done();
    expect(written).toHaveLength(3); // the live line is refreshed even when unchanged (elapsed time moves)
    expect(written[0]).toMatch(/^\r\x1b\[2KRUNNING {2}pages 1\/2 {2}\d+\.\ds\r$/);
    expect(written.at(-1)).toBe('\r\x1b[2K');
    expect(written.join('')).not.toContain('\n');
  });

  it('not a terminal: one line per change, none for a repeated state', () => {
    const { written, out } = capture(false);
    const p = new Progress(out, true);
    p.update({ status: 'QUEUED' });
    p.update({ status: 'QUEUED' });
    p.update({ status: 'RUNNING', detail: 'pages 0/2' });
    p.done();
    expect(written).toEqual([
      expect.stringMatching(/^\[\d+\.\ds\] QUEUED\n$/),
      expect.stringMatching(/^\[\d+\.\ds\] RUNNING {2}pages 0\/2\n$/),
    ]);
  });

  it('disabled: prints nothing', () => {
    const { written, out } = capture(true);
    const p = new Progress(out, false);
    p.update({ status: 'RUNNING' });
    p.done();
    expect(written).toEqual([]);
  });

  it('Output redacts protected secrets and honours NO_COLOR', () => {
    const written: string[] = [];
    const stream = { write: (t: string) => written.push(t), isTTY: true };
    const out = new Output({ stdout: stream, stderr: stream, env: { NO_COLOR: '1' } });
    out.protect('svc_secret_value_123');
    out.out('key svc_secret_value_123 here');
    expect(written).toEqual(['key [redacted] here']);
    expect(out.color).toBe(false);
    expect(new Output({ stdout: stream, stderr: stream, env: {} }).color).toBe(true);
  });
});
