// failureOf: one reading of why a job failed, whatever fields its kind uses — by table, then on every job kind
// the simulator fails for real, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient, failureOf } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';

describe('failureOf', () => {
  it.each([
    [
      'CI check: a string',
      { status: 'FAILED', failureReason: 'No page could be reached.' },
      { reason: 'No page could be reached.', message: 'No page could be reached.' },
    ],
    [
      'scan / scan run: code and reason',
      { failureReason: { code: 'ROOT_UNREACHABLE', reason: 'The root could not be reached.' } },
      {
        code: 'ROOT_UNREACHABLE',
        reason: 'The root could not be reached.',
        message: 'ROOT_UNREACHABLE: The root could not be reached.',
      },
    ],
    [
      'scan: only a code',
      { failureReason: { code: 'PAGE_UNREACHABLE' } },
      { code: 'PAGE_UNREACHABLE', message: 'PAGE_UNREACHABLE' },
    ],
    [
      'journey run: code, text and step',
      { failureReasonCode: 'STEP_SELECTOR_NOT_FOUND', failureReasonText: 'No #continue.', failedStepIndex: 2 },
      {
        code: 'STEP_SELECTOR_NOT_FOUND',
        reason: 'No #continue.',
        stepIndex: 2,
        message: 'STEP_SELECTOR_NOT_FOUND: No #continue.',
      },
    ],
    [
      'fix verification: a code',
      { failureReasonCode: 'ALL_PAGES_FAILED' },
      { code: 'ALL_PAGES_FAILED', message: 'ALL_PAGES_FAILED' },
    ],
    [
      'fields of the wrong type are ignored, the rest is read',
      { failureReason: { code: 7, reason: 'words' }, failedStepIndex: '2' },
      { reason: 'words', message: 'words' },
    ],
  ])('%s', (_name, job, expected) => {
    expect(failureOf(job)).toEqual(expected);
  });

  it.each([
    ['a job that did not fail', { status: 'COMPLETED', verdict: 'PASS' }],
    ['empty strings', { failureReason: '  ', failureReasonCode: '' }],
    ['an object of other keys', { failureReason: { detail: 'x' } }],
    ['an array', { failureReason: ['ROOT_UNREACHABLE'] }],
    ['null', null],
    ['a string', 'FAILED'],
    ['undefined', undefined],
  ])('undefined for %s, never "[object Object]"', (_name, job) => {
    expect(failureOf(job)).toBeUndefined();
  });
});

describe('failureOf on jobs the simulator fails (HTTP)', () => {
  let sim: Simulator;
  let client: A11yClient;
  beforeAll(async () => {
    sim = await startSimulator({
      durations: { scan: 50, scanRun: 50, ciCheck: 50, journeyRun: 50, fixVerification: 50 },
      rateLimit: false,
    });
    client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
  });
  afterAll(() => sim.stop());
  const wait = { intervalMs: 20, timeoutMs: 10_000 };

  it('each job kind that ended FAILED gives a code or words, read from its own fields', async () => {
    const [scan, run, check, journey, fix] = await Promise.all([
      client.scans.createAndWait({ url: 'https://shop.example.com/unreachable' }, wait),
      client.scanRuns.createAndWait({ siteId: sim.ids.offlineSite }, wait),
      client.ciChecks.createAndWait({ urls: ['https://shop.example.com/unreachable'] }, wait),
      client.journeys.runAndWait(sim.ids.failingJourney, wait),
      client.fixes.verifyAndWait(sim.ids.unreachableFix, wait),
    ]);
    expect([scan, run, check, journey, fix].map((job) => job.status)).toEqual([
      'FAILED',
      'FAILED',
      'FAILED',
      'FAILED',
      'FAILED',
    ]);
    expect(failureOf(scan)).toMatchObject({
      code: 'PAGE_UNREACHABLE',
      message: expect.stringMatching(/^PAGE_UNREACHABLE: \S/),
    });
    expect(failureOf(run)).toMatchObject({
      code: 'ROOT_UNREACHABLE',
      message: expect.stringMatching(/^ROOT_UNREACHABLE: \S/),
    });
    expect(failureOf(check)).toEqual({ reason: check.failureReason, message: check.failureReason });
    expect(failureOf(journey)).toMatchObject({
      code: 'STEP_SELECTOR_NOT_FOUND',
      stepIndex: journey.failedStepIndex,
      message: expect.stringMatching(/^STEP_SELECTOR_NOT_FOUND: Step \d/),
    });
    expect(failureOf(fix)).toEqual({ code: 'ALL_PAGES_FAILED', message: 'ALL_PAGES_FAILED' });
    for (const job of [scan, run, check, journey, fix]) expect(failureOf(job)!.message).not.toMatch(/object|undefined/);
  });

  it('a job that completed has none', async () => {
    const scan = await client.scans.createAndWait({ url: 'https://shop.example.com/' }, wait);
    expect(scan.status).toBe('COMPLETED');
    expect(failureOf(scan)).toBeUndefined();
  });
});
