// The HTML report (`--report html=FILE`) in the real browser the portability test uses (Debian's Chromium through
// playwright-core): it opens with its own Content-Security-Policy in force and no console error, makes no request
// but the document itself, a keyboard user reaches every section from the skip list (focus moves there), and
// axe-core's default rules find no violation.
import { readFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateReports, prepareReport, toHtml, type HtmlRunInfo } from '../../src/cli/report/index.js';
import { checkSuppressions } from '../../src/cli/verdict/suppressions.js';
import { adversarialReport, failReport, unreachableReport } from '../cli/reporters/fixtures.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SECTIONS = ['verdict', 'impacts', 'pages', 'rules', 'batches', 'suppressions', 'configuration'];

// A run of three checks: a FAIL with suppressed findings, one with hostile API text, one with an unreachable page.
function reportHtml(): string {
  const suppressions = checkSuppressions(
    {
      suppressions: [
        { ruleId: 'label', url: '/checkout', reason: 'Form redesign ships in v4 (A11Y-12)', expires: '2999-12-31' },
        { ruleId: 'region', reason: 'Decorative promo', expires: '2999-12-31' },
      ],
    },
    '.a11y-suppressions.json',
    '2026-01-01',
  ).active;
  const batch = (i: number, urls: string[]) => ({
    key: `https://shop.example.com ${i}/3`,
    label: `shop.example.com ${i}/3`,
    urls,
  });
  const reports = [failReport(), adversarialReport(), unreachableReport()].map((raw, i) =>
    prepareReport(raw, {
      suppressions,
      batch: batch(
        i + 1,
        (raw.check.pages ?? []).map((p) => p.url ?? ''),
      ),
    }),
  );
  const run: HtmlRunInfo = {
    settings: [
      ['Pages checked', '7'],
      ['Threshold (--fail-on)', 'SERIOUS_OR_WORSE'],
      ['Sitemap 1', 'https://shop.example.com/sitemap.xml'],
    ],
    expired: ['#3 color-contrast, expires 2020-01-01'],
    stale: [],
  };
  return toHtml(aggregateReports(reports), { toolVersion: '0.0.0-test', run });
}

describe('the HTML report in headless Chromium', () => {
  let server: Server;
  let url = '';
  let browser: Browser;
  let page: Page;
  const served: string[] = [];
  const requests: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH))
      throw new Error(
        `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`,
      );
    const html = reportHtml();
    server = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url !== '/report.html') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.html`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    page = await browser.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on(
      'console',
      (m) => (m.type() === 'error' || m.type() === 'warning') && errors.push(`console.${m.type()}: ${m.text()}`),
    );
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('opens with its stylesheet allowed by its own CSP, no console error, and no request but the document', async () => {
    expect(await page.title()).toBe('Accessibility check: FAIL');
    // The stylesheet applied (a CSP that blocked it would leave the badge unstyled and log an error).
    expect(await page.locator('h1 .badge').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(
      'rgb(179, 38, 30)',
    );
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(await page.locator('script').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    expect(served).toEqual(['/report.html']);
  });

  it('shows the verdict, each batch, suppressed findings and help links', async () => {
    // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees (closed disclosures hide theirs).
    const text = await page.locator('main').innerText();
    for (const label of ['shop.example.com 1/3', 'shop.example.com 2/3', 'shop.example.com 3/3'])
      expect(text).toContain(label);
    expect(text).toContain('Form redesign ships in v4 (A11Y-12)');
    expect(text).toContain('#3 color-contrast, expires 2020-01-01');
    const helps = await page.locator('#rules ~ details a[href^="https://"]').count();
    expect(helps).toBeGreaterThan(0);
    // API text stays text: the hostile fixture's markup is not markup here.
    expect(await page.locator('main b, main script').count()).toBe(0);
  });

  it('a keyboard user reaches every section: Tab reaches each skip link, Enter moves the focus to its section', async () => {
    await page.goto(url, { waitUntil: 'load' });
    const reached = new Set<string>();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const href = await page.evaluate(() => document.activeElement?.getAttribute('href'));
      if (href) reached.add(href);
    }
    expect([...reached].filter((h) => h.startsWith('#'))).toEqual(SECTIONS.map((s) => `#${s}`));
    for (const id of SECTIONS) {
      await page.locator(`nav a[href="#${id}"]`).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(id);
      // From there, Tab goes on into the section's own content (its disclosures and links), not back to the top.
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(
        (sid) => document.getElementById(sid)?.closest('section')?.contains(document.activeElement) ?? false,
        id,
      );
      const after = await page.evaluate((sid) => {
        const section = document.getElementById(sid)?.closest('section');
        return section
          ? Boolean(section.compareDocumentPosition(document.activeElement!) & Node.DOCUMENT_POSITION_FOLLOWING)
          : false;
      }, id);
      expect(inside || after).toBe(true);
    }
  });

  it('axe-core (default rules) finds no violation', { timeout: 60_000 }, async () => {
    await page.goto(url, { waitUntil: 'load' });
    // Evaluated through the DevTools protocol, so the page's CSP (no script at all) stays as it is.
    await page.evaluate(axeSource);
    // Every disclosure open, so the rules see every table.
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.setAttribute('open', '');
    });
    const result = (await page.evaluate(() =>
      (window as unknown as { axe: { run: (c: Document) => Promise<unknown> } }).axe.run(document),
    )) as {
      violations: Array<{ id: string; nodes: Array<{ target: unknown }> }>;
      passes: unknown[];
    };
    expect(
      result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`),
    ).toEqual([]);
    expect(result.passes.length).toBeGreaterThan(10);
    if (process.env.HTML_REPORT_SCREENSHOT)
      await page.screenshot({ path: process.env.HTML_REPORT_SCREENSHOT, fullPage: true });
  });
});
