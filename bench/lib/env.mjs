// The environment every result is recorded with (protocol: node, undici, CPU model, date).
import os from 'node:os';

export function envInfo() {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    undici: process.versions.undici,
    v8: process.versions.v8,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    // Load at start: a busy shared machine explains a wide spread.
    loadAvg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/**
 * BENCH_QUICK=1 shortens benchmarks 1–3 (fewer rounds and processes) to check that it runs; its results go to
 * bench/results/tmp/ (ignored by git) and never replace latest.* or partial.*: quick figures are not published.
 */
export const QUICK = process.env.BENCH_QUICK === '1';
