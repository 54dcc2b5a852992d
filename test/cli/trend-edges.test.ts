// `svc-a11y trend` prints whatever counts the service sends and exits 0: a negative count used to reach
// 'x'.repeat(-n) (RangeError, exit 70), and 150 000 points overflowed Math.max(...points). The CLI in process
// against a loopback server on 127.0.0.1, plus the chart renderer on its own.
import { afterEach, describe, expect, it } from 'vitest';
import { barChart, table } from '../../src/cli/io/tables.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const siteId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
let api: Loopback | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const point = (totalViolations: number, day = 1) => ({
  scanRunId: `r${day}`,
  finishedAt: `2026-05-${String((day % 28) + 1).padStart(2, '0')}T10:00:00Z`,
  status: 'COMPLETED',
  pagesScanned: 3,
  totalViolations,
  addedCount: -1,
  resolvedCount: 0,
});
const trend = async (points: unknown[], args: string[] = []) => {
  api = await startLoopback(json(200, { siteId, standard: 'WCAG22_AA', points }));
  return runCliLikeBinary(['trend', siteId, ...args], {
    env: { SVC_API_KEY: 'svc_trend_edges_key', SVC_BASE_URL: api.url },
    timeoutMs: 60_000,
  });
};

describe('trend with counts a chart cannot scale', () => {
  it.each([
    ['one negative count', [point(-5)], ['-5']],
    ['negative and positive counts', [point(-3, 1), point(10, 2), point(0, 3)], ['-3', '10']],
    ['the int32 extremes', [point(-2147483648, 1), point(2147483647, 2)], ['-2147483648', '2147483647']],
    ['only zeros', [point(0, 1), point(0, 2)], ['0']],
  ])('%s → printed, exit 0 (was 70)', async (_name, points, shown) => {
    const r = await trend(points);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/FINISHED\s+STATUS\s+PAGES\s+TOTAL/);
    for (const value of shown) expect(r.stdout).toMatch(new RegExp(`\\s${value}\\n`));
  });

  it('150 000 points (more than Math.max(...) takes as arguments) → printed, exit 0', async () => {
    const points = Array.from({ length: 150_000 }, (_, i) => ({
      finishedAt: '2026-05-01T10:00:00Z',
      totalViolations: i % 7,
    }));
    const r = await trend(points);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    // Chart lines (label, bar, value) of the largest value, 6: one in 7 points. (Counted by their ends: runCli
    // joins raw chunks, which may split a multi-byte █.)
    const chartLines = r.stdout.split('\n').filter((line) => line.startsWith('2026-05-01  '));
    expect(chartLines).toHaveLength(150_000);
    expect(chartLines.filter((line) => line.endsWith('  6'))).toHaveLength(Math.ceil((150_000 - 6) / 7));
  });

  it('--json prints the negative count as the service sent it', async () => {
    const r = await trend([point(-5)], ['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).points[0].totalViolations).toBe(-5);
  });
});

describe('barChart', () => {
  it('scales positive values to the width, leaves an empty bar for negatives, prints every value as given', () => {
    const lines = barChart(
      [
        { label: 'a', value: 10 },
        { label: 'b', value: 5 },
        { label: 'c', value: -7 },
        { label: 'd', value: Number.NaN },
        { label: 'e', value: Number.POSITIVE_INFINITY },
      ],
      10,
    ).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `a  ${'█'.repeat(10)}  10`,
      `b  ${'█'.repeat(5).padEnd(10)}  5`,
      `c  ${' '.repeat(10)}  -7`,
      `d  ${' '.repeat(10)}  NaN`,
      `e  ${' '.repeat(10)}  Infinity`,
    ]);
  });

  it('a value that is not a number (no response validation) gets no bar and no error', () => {
    expect(barChart([{ label: 'x', value: '12' as unknown as number }], 4)).toBe('x        12\n');
  });

  it('table and chart take 300 000 rows without overflowing the stack', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [String(i)]);
    expect(table(['N'], rows).split('\n')).toHaveLength(300_002);
    expect(
      barChart(
        rows.map(([n]) => ({ label: n!, value: Number(n) })),
        2,
      ).endsWith('██  299999\n'),
    ).toBe(true);
  });
});
