import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Log, Result } from 'sarif';
import { validateSarif } from '../../support/sarif.js';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_KEY, sarifLevel } from '../../../src/cli/report/index.js';
import type { CiReport } from '../../../src/cli/report/index.js';
import {
  checkSourceMap,
  MAX_SARIF_RESULTS,
  parseSourceMap,
  SOURCE_ROOT,
  UNKNOWN_PAGE_URI,
  type SourceMapEntry,
  type SarifOptions,
} from '../../../src/cli/report/sarif.js';
import {
  adversarialReport,
  APP_URL,
  CHECKOUT,
  EVIL_HELP,
  EVIL_RULE,
  EVIL_TARGET_SAFE,
  EVIL_URL,
  failedCheckReport,
  failReport,
  FAIL_BREAKING,
  HOME,
  manyFindingsReport,
  sparseReport,
  unreachableReport,
  v,
} from './fixtures.js';
import { sarifOf as toSarifPrepared } from '../../support/reports.js';

const validate = validateSarif;

// Validates the log as the CLI writes it (serialised), so `undefined` members cannot hide problems.
function sarifOf(report: CiReport, options: Partial<SarifOptions> = {}): Log {
  const log = JSON.parse(JSON.stringify(toSarifPrepared(report, { toolVersion: '0.1.0', ...options }))) as Log;
  const valid = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
  return log;
}

const resultsOf = (log: Log): Result[] => log.runs[0]?.results ?? [];
const sha16 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
const uriOf = (r: Result | undefined): string | undefined => r?.locations?.[0]?.physicalLocation?.artifactLocation?.uri;

describe('toSarif', () => {
  it('uses a validator that rejects invalid logs (so the checks below mean something)', () => {
    const bad = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'x', informationUri: 'not a uri' } },
          results: [{ level: 'fatal', message: { text: 'm' } }],
        },
      ],
    };
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/runs/0/tool/driver/informationUri', '/runs/0/results/0/level']),
    );
  });

  it.each([
    ['a FAIL check', failReport],
    ['a check with an unreachable page', unreachableReport],
    ['a check that failed', failedCheckReport],
    ['a check with missing fields', sparseReport],
    ['adversarial strings', adversarialReport],
    ['many findings', () => manyFindingsReport(500)],
  ])('is valid SARIF 2.1.0 for %s', (_, make) => {
    const log = sarifOf(make());
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver.name).toBe('svc-a11y');
  });

  it('reports only the findings that break the threshold, new first', () => {
    const results = resultsOf(sarifOf(failReport()));
    expect(results.map((r) => r.partialFingerprints?.[FINGERPRINT_KEY])).toEqual(FAIL_BREAKING);
    expect(results.map((r) => [r.ruleId, r.level])).toEqual([
      ['color-contrast', 'error'],
      ['label', 'error'],
      ['image-alt', 'error'],
    ]);
  });

  it('builds one rule per reported rule id, with helpUri, WCAG tags and a correct ruleIndex', () => {
    const run = sarifOf(failReport()).runs[0]!;
    const rules = run.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual(['color-contrast', 'image-alt', 'label']);
    for (const result of run.results ?? []) expect(rules[result.ruleIndex!]?.id).toBe(result.ruleId);
    const label = rules.find((r) => r.id === 'label')!;
    expect(label.helpUri).toBe('https://dequeuniversity.com/rules/axe/4.10/label');
    expect(label.shortDescription?.text).toContain('label');
    expect(label.properties?.tags).toEqual(['accessibility', '1.3.1', '4.1.2']);
  });

  it('locates a result by page URL and element selector, with baseline state and properties', () => {
    const [contrast, , img] = resultsOf(sarifOf(failReport()));
    // The page's host and path, repository-relative (GitHub takes no https artifact); the URL itself is kept aside.
    expect(contrast?.locations).toEqual([
      {
        physicalLocation: { artifactLocation: { uri: 'shop.example.com/' }, region: { startLine: 1 } },
        logicalLocations: [{ fullyQualifiedName: 'a.btn-primary', kind: 'element' }],
      },
    ]);
    expect(contrast?.properties?.pageUrl).toBe(HOME);
    expect(contrast?.message.text).toContain(` on ${HOME}`);
    expect(contrast?.baselineState).toBe('new');
    expect(contrast?.properties).toMatchObject({ isNew: true, wcagSc: ['1.4.3'], impact: 'critical' });
    expect(img?.baselineState).toBe('unchanged');
    expect(img?.properties?.isNew).toBe(false);
    expect(img?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('shop.example.com/checkout');
    expect(img?.properties?.pageUrl).toBe(CHECKOUT);
    expect(contrast?.message.text).toContain('color-contrast');
  });

  it('maps impacts to levels', () => {
    expect(['critical', 'serious', 'moderate', 'minor', undefined, 'blocker'].map(sarifLevel)).toEqual([
      'error',
      'error',
      'warning',
      'note',
      'warning',
      'warning',
    ]);
    const report = failReport();
    report.check.failOn = 'NONE';
    expect(resultsOf(sarifOf(report))).toEqual([]);
  });

  it('records the check in run properties and tool version', () => {
    const run = sarifOf(failReport()).runs[0]!;
    expect(run.properties).toMatchObject({
      checkId: failReport().check.id,
      verdict: 'FAIL',
      appUrl: APP_URL,
      failOn: 'SERIOUS_OR_WORSE',
    });
    expect(run.tool.driver.version).toBe('0.1.0');
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
    expect(run.invocations?.[0]?.executionSuccessful).toBe(true);
  });

  it('reports an unchecked page and a failed check as unsuccessful execution', () => {
    const unreachable = sarifOf(unreachableReport()).runs[0]!;
    expect(unreachable.invocations?.[0]?.executionSuccessful).toBe(false);
    expect(unreachable.invocations?.[0]?.toolExecutionNotifications?.[0]?.message.text).toContain('UNREACHABLE');
    const failed = sarifOf(failedCheckReport()).runs[0]!;
    expect(failed.invocations?.[0]?.executionSuccessful).toBe(false);
    expect(failed.invocations?.[0]?.toolExecutionNotifications?.[0]?.message.text).toContain('Site unreachable');
  });

  it('omits what the API did not send', () => {
    const [result] = resultsOf(sarifOf(sparseReport()));
    expect(result?.ruleId).toBe('unknown-rule');
    expect(result?.partialFingerprints).toBeUndefined();
    // GitHub drops a result without a location, so a finding without URL gets a placeholder file.
    expect(result?.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: UNKNOWN_PAGE_URI }, region: { startLine: 1 } } },
    ]);
    expect(result?.properties?.pageUrl).toBeUndefined();
    expect(sarifOf(sparseReport()).runs[0]?.tool.driver.rules?.[0]?.helpUri).toBeUndefined();
  });

  it('keeps adversarial strings intact where they are data, and encodes them where they are URIs', () => {
    const run = sarifOf(adversarialReport()).runs[0]!;
    const [result] = run.results ?? [];
    expect(result?.ruleId).toBe(EVIL_RULE);
    expect(result?.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName).toBe(EVIL_TARGET_SAFE);
    const uri = result?.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
    expect(uri).not.toMatch(/[|<>"\s]/);
    expect(decodeURI(uri)).toContain('evil.example.com/p|a%th');
    expect(run.tool.driver.rules?.[0]?.helpUri).toBe('https://help.example.com/rule?x=a%7Cb&y=(c)');
    expect(decodeURIComponent(run.tool.driver.rules?.[0]?.helpUri ?? '')).toBe(EVIL_HELP);
    expect(result?.partialFingerprints).toEqual({
      [FINGERPRINT_KEY]: 'fp<&>"',
      primaryLocationLineHash: `${sha16('fp<&>"')}:1`,
    });
    expect(result?.properties?.pageUrl).toBe(EVIL_URL);
  });
});

describe('toSarif for GitHub code scanning', () => {
  const one = (
    url: string | undefined,
    options: Partial<SarifOptions> = {},
    fields: Parameters<typeof v>[0] = {},
  ): Result =>
    resultsOf(
      sarifOf(
        {
          check: { id: 'c', status: 'COMPLETED', failOn: 'ANY_CRITICAL' },
          violations: [v({ impact: 'critical', url, ...fields })],
        },
        options,
      ),
    )[0]!;

  it('gives every rule what GitHub requires and shows: short and full description, help text and markdown', () => {
    const rules = sarifOf(failReport()).runs[0]!.tool.driver.rules ?? [];
    for (const rule of rules) {
      expect(rule.shortDescription?.text.length).toBeGreaterThan(0);
      expect(rule.fullDescription?.text.length).toBeGreaterThan(0);
      expect(rule.fullDescription?.text.length).toBeLessThanOrEqual(1024);
      expect(rule.help?.text).toContain(rule.helpUri!);
      expect(rule.help?.markdown).toContain(`(<${rule.helpUri}>)`);
    }
    const label = rules.find((r) => r.id === 'label')!;
    expect(label.fullDescription?.text).toContain('label');
    expect(label.fullDescription?.text).toContain('WCAG 1.3.1, 4.1.2');
    // `problem.severity` follows the most severe level among the rule's results; nothing is claimed about
    // precision, and accessibility findings are not security findings.
    expect(label.properties).toEqual({ tags: ['accessibility', '1.3.1', '4.1.2'], 'problem.severity': 'error' });
    expect(
      rules.every((r) => r.properties?.['security-severity'] === undefined && r.properties?.precision === undefined),
    ).toBe(true);
  });

  it('keeps rule texts within GitHub limits and help links to absolute http(s) URLs', () => {
    const long = 'x'.repeat(5000);
    const rule = (fields: Parameters<typeof v>[0]) =>
      sarifOf({ check: { id: 'c', status: 'COMPLETED' }, violations: [v({ impact: 'critical', ...fields })] }).runs[0]!
        .tool.driver.rules![0]!;
    const huge = rule({ ruleId: long, wcagSc: Array.from({ length: 40 }, (_, i) => `1.${i}.1`) });
    expect(huge.id).toBe(long);
    expect(huge.shortDescription?.text.length).toBeLessThanOrEqual(1024);
    expect(huge.fullDescription?.text.length).toBeLessThanOrEqual(1024);
    expect(huge.properties?.tags).toHaveLength(10);
    expect(rule({ helpUrl: 'javascript:alert(1)' }).helpUri).toBeUndefined();
    expect(rule({ helpUrl: `https://help.example.com/${long}` }).helpUri).toBeUndefined();
    expect(rule({ helpUrl: 'javascript:alert(1)' }).help?.text).not.toContain('javascript');
  });

  it.each([
    ['https://shop.example.com/checkout?x=1#top', 'shop.example.com/checkout'],
    ['https://Shop.Example.COM/', 'shop.example.com/'],
    ['https://shop.example.com', 'shop.example.com/'],
    ['https://shop.example.com/docs/', 'shop.example.com/docs/'],
    ['http://localhost:3000/a/b', 'localhost%3A3000/a/b'],
    ['http://[::1]:8080/x', '%5B%3A%3A1%5D%3A8080/x'],
    ['https://user:secret@shop.example.com/p', 'shop.example.com/p'],
    ['https://bücher.example/straße', 'xn--bcher-kva.example/stra%C3%9Fe'],
    ['https://shop.example.com/caf%C3%A9/%7Euser', 'shop.example.com/caf%C3%A9/~user'],
    ['https://shop.example.com/%2e%2e/%2E%2E/etc/passwd', 'shop.example.com/etc/passwd'],
    ['https://shop.example.com/a/..%2f..%2fb/c%5C..%5Cd', 'shop.example.com/a/.._.._b/c_.._d'],
    ['https://shop.example.com/%00%0A/x', 'shop.example.com/__/x'],
    ['https://shop.example.com/%ff%zz', 'shop.example.com/%25ff%25zz'],
    ['https://shop.example.com//a//b', 'shop.example.com/a/b'],
    ['https://shop.example.com/[id]/(group)/a:b', 'shop.example.com/%5Bid%5D/(group)/a%3Ab'],
    ['not a url', 'not%20a%20url'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['file:///etc/passwd', 'file%3A___etc_passwd'],
    ['..', UNKNOWN_PAGE_URI],
    ['', UNKNOWN_PAGE_URI],
  ])('locates %j at %j', (url, uri) => {
    expect(uriOf(one(url))).toBe(uri);
    expect(one(url).locations?.[0]?.physicalLocation?.artifactLocation?.uriBaseId).toBeUndefined();
  });

  it('clips long paths stably, with a hash that keeps different pages apart', () => {
    const a = `https://shop.example.com/${'a'.repeat(1000)}`;
    const b = `https://shop.example.com/${'a'.repeat(999)}b`;
    expect(uriOf(one(a))).toMatch(/^shop\.example\.com\/a{111}~[0-9a-f]{8}$/);
    expect(uriOf(one(a))).toBe(uriOf(one(a)));
    expect(uriOf(one(a))).not.toBe(uriOf(one(b)));
    const deep = uriOf(one(`https://shop.example.com/${'s/'.repeat(500)}end`))!;
    expect(deep.split('/')).toHaveLength(25);
    expect(deep).toMatch(/\/~[0-9a-f]{8}$/);
  });

  it('never writes a location that is absolute, climbs out, or is not RFC 3986, whatever the URL', () => {
    const anyUrl = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc
        .array(
          fc.constantFrom(
            '/',
            '.',
            '..',
            '%2e',
            '%2f',
            '%5c',
            '\\',
            '%00',
            '%',
            ':',
            '@',
            '😀',
            '\uD800',
            '?',
            '#',
            'a',
          ),
          { maxLength: 30 },
        )
        .map((parts) => `https://h.example/${parts.join('')}`),
    );
    fc.assert(
      fc.property(anyUrl, (url) => {
        const uri = uriOf(one(url))!;
        expect(uri).toMatch(/^[A-Za-z0-9\-._~!$&'()*+,;=@%/]+$/);
        expect(uri).not.toMatch(/%(?![0-9A-F]{2})/);
        expect(uri.startsWith('/')).toBe(false);
        const decoded = decodeURIComponent(uri).split('/');
        expect(decoded.filter((s) => s === '..' || s === '.')).toEqual([]);
        expect(decoded.some((s) => s.includes('\\'))).toBe(false);
        expect(uriOf(one(url))).toBe(uri);
      }),
      { numRuns: 300 },
    );
  });

  it('does not let the location change the fingerprints', () => {
    const map: SourceMapEntry[] = [{ prefix: '/checkout', file: 'src/pages/checkout.tsx' }];
    const plain = resultsOf(sarifOf(failReport()));
    const mapped = resultsOf(sarifOf(failReport(), { sourceMap: map }));
    expect(mapped.map((r) => r.partialFingerprints)).toEqual(plain.map((r) => r.partialFingerprints));
    expect(plain.map(uriOf)).toEqual(['shop.example.com/', 'shop.example.com/checkout', 'shop.example.com/checkout']);
    expect(mapped.map(uriOf)).toEqual(['shop.example.com/', 'src/pages/checkout.tsx', 'src/pages/checkout.tsx']);
    for (const r of plain) {
      expect(r.partialFingerprints?.primaryLocationLineHash).toBe(
        `${sha16(r.partialFingerprints![FINGERPRINT_KEY]!)}:1`,
      );
    }
    expect(new Set(plain.map((r) => r.partialFingerprints?.primaryLocationLineHash)).size).toBe(plain.length);
  });

  it('locates mapped pages in their source file: longest prefix, on whole path segments', () => {
    const sourceMap: SourceMapEntry[] = [
      { prefix: '/', file: 'src/pages/index.tsx' },
      { prefix: '/check', file: 'src/pages/check.tsx' },
      { prefix: '/checkout', file: 'src/pages/checkout.tsx' },
      { prefix: '/checkout/pay', file: 'src/pages/checkout/[step].tsx' },
      { prefix: '/café', file: 'src/pages/café ü.tsx' },
    ];
    const fileOf = (url: string) => one(url, { sourceMap }).locations?.[0]?.physicalLocation?.artifactLocation;
    expect(fileOf('https://shop.example.com/checkout')).toEqual({
      uri: 'src/pages/checkout.tsx',
      uriBaseId: SOURCE_ROOT,
    });
    expect(fileOf('https://shop.example.com/checkout/')?.uri).toBe('src/pages/checkout.tsx');
    expect(fileOf('https://shop.example.com/checkout/address?x=1')?.uri).toBe('src/pages/checkout.tsx');
    expect(fileOf('https://shop.example.com/checkout/pay/card')?.uri).toBe('src/pages/checkout/%5Bstep%5D.tsx');
    expect(fileOf('https://shop.example.com/checkouts')?.uri).toBe('src/pages/index.tsx');
    expect(fileOf('https://shop.example.com/check')?.uri).toBe('src/pages/check.tsx');
    expect(fileOf('https://shop.example.com/café/x')?.uri).toBe('src/pages/caf%C3%A9%20%C3%BC.tsx');
    expect(fileOf('https://other.example.com/')?.uri).toBe('src/pages/index.tsx');
    expect(
      one('https://shop.example.com/cart', { sourceMap: [{ prefix: '/checkout', file: 'a.tsx' }] }).locations?.[0]
        ?.physicalLocation?.artifactLocation,
    ).toEqual({ uri: 'shop.example.com/cart' });
    const mapped = one('https://shop.example.com/checkout?step=2', { sourceMap });
    expect(mapped.message.text).toContain('https://shop.example.com/checkout?step=2');
    expect(mapped.properties?.pageUrl).toBe('https://shop.example.com/checkout?step=2');
    expect(mapped.locations?.[0]?.physicalLocation?.region).toEqual({ startLine: 1 });
  });

  it('lets the later of two equal prefixes win (flags after the config file)', () => {
    const sourceMap = [
      { prefix: '/checkout', file: 'from-config.tsx' },
      { prefix: '/checkout/', file: 'from-flag.tsx' },
    ];
    expect(uriOf(one('https://shop.example.com/checkout/x', { sourceMap }))).toBe('from-flag.tsx');
  });

  it('refuses an invalid source map given to toSarif', () => {
    expect(() =>
      sarifOf(failReport(), { toolVersion: '0.1.0', sourceMap: [{ prefix: '/x', file: '../secrets.txt' }] }),
    ).toThrow(/Invalid SARIF map entry "\/x=..\/secrets.txt": the file must not contain '..'/);
  });

  it('locates unchecked pages like results, the URL kept in properties', () => {
    const [notification] = sarifOf(unreachableReport()).runs[0]!.invocations![0]!.toolExecutionNotifications!;
    expect(notification?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('shop.example.com/checkout');
    expect(notification?.properties?.pageUrl).toBe(CHECKOUT);
  });

  it('writes display text that cannot inject links, escapes or broken characters, and clips it', () => {
    const target = 'a[href](1) \u001b[31m\u0000 \u202Eevil \uD800 😀';
    const r = one(
      HOME,
      {},
      { target, failureSummary: `see [docs](https://evil.example/)\r\nline2\n::error::x ${'y'.repeat(10_000)}` },
    );
    const text = r.message.text ?? '';
    expect(text).not.toContain('](');
    expect(text).toContain('a[href] (1)');
    expect(text).toContain('[docs] (https://evil.example/)\nline2\n::error::x');
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F\u202E\uD800]/);
    expect(text).toContain('😀');
    expect(Array.from(text)).toHaveLength(4000);
    // The selector is data: kept as sent but for the controls and the bidi override made visible where the report
    // entered, and as well-formed UTF-16.
    expect(r.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName).toBe(
      'a[href](1) \uFFFD[31m\uFFFD \uFFFDevil \uFFFD 😀',
    );
  });

  it(`keeps at most ${MAX_SARIF_RESULTS} results (GitHub rejects more) and says how many it left out`, () => {
    const small = sarifOf(manyFindingsReport(30), { maxResults: 20 }).runs[0]!;
    expect(small.results).toHaveLength(20);
    expect(small.properties?.omittedResults).toBe(10);
    expect(small.invocations?.[0]?.toolExecutionNotifications?.at(-1)).toMatchObject({
      level: 'warning',
      message: { text: expect.stringContaining('10 more failing findings') },
    });
    expect(small.tool.driver.rules?.every((rule) => small.results?.some((r) => r.ruleId === rule.id))).toBe(true);
    const big = sarifOf(manyFindingsReport(MAX_SARIF_RESULTS + 1), { toolVersion: '0.1.0' }).runs[0]!;
    expect(big.results).toHaveLength(MAX_SARIF_RESULTS);
    expect(big.properties?.omittedResults).toBe(1);
    expect(sarifOf(manyFindingsReport(30)).runs[0]!.properties?.omittedResults).toBeUndefined();
  });
});

describe('parseSourceMap', () => {
  it('reads PREFIX=FILE entries separated by commas or line breaks, normalised', () => {
    expect(parseSourceMap('/checkout=src/pages/checkout.tsx')).toEqual([
      { prefix: '/checkout', file: 'src/pages/checkout.tsx' },
    ]);
    expect(
      parseSourceMap(' /checkout/ = ./src/pages/checkout.tsx ,\n\n/=src/pages/index.tsx\r\n/café=src/café.tsx,'),
    ).toEqual([
      { prefix: '/checkout', file: 'src/pages/checkout.tsx' },
      { prefix: '/', file: 'src/pages/index.tsx' },
      { prefix: '/caf%C3%A9', file: 'src/café.tsx' },
    ]);
    expect(parseSourceMap('/a/../b=x.ts')).toEqual([{ prefix: '/b', file: 'x.ts' }]);
    expect(parseSourceMap('/p=src/a=b.tsx')).toEqual([{ prefix: '/p', file: 'src/a=b.tsx' }]);
    expect(parseSourceMap('')).toEqual([]);
    expect(parseSourceMap(' , \n')).toEqual([]);
  });

  it.each([
    ['/checkout', "'=' is missing"],
    ['checkout=src/a.tsx', "must start with '/'"],
    ['/checkout?x=1=src/a.tsx', 'path only'],
    ['/checkout#top=src/a.tsx', 'path only'],
    ['/checkout=', 'must name a file'],
    ['/checkout=/abs/a.tsx', 'relative to the repository root'],
    ['/checkout=C:/a.tsx', 'relative to the repository root'],
    ['/checkout=https://example.com/a.tsx', 'relative to the repository root'],
    ['/checkout=C:\\a.tsx', "use '/'"],
    ['/checkout=src\\a.tsx', "use '/'"],
    ['/checkout=../a.tsx', "must not contain '..'"],
    ['/checkout=src/../../a.tsx', "must not contain '..'"],
    ['/checkout=src//a.tsx', 'must name a file'],
    ['/checkout=src/pages/', 'must name a file'],
    ['/checkout=src/a\u0000.tsx', 'control character'],
  ])('refuses %j, naming the entry (%s)', (entry, reason) => {
    expect(() => parseSourceMap(`/ok=src/ok.tsx,${entry}`)).toThrow(reason);
    expect(() => parseSourceMap(`/ok=src/ok.tsx,${entry}`)).toThrow(
      `Invalid SARIF map entry ${JSON.stringify(entry)}: `,
    );
  });

  it('checks entries given as objects the same way (the config file)', () => {
    expect(
      checkSourceMap([
        { prefix: '/checkout/', file: './src/pages/checkout.tsx' },
        { prefix: '/', file: 'a,b.tsx' },
      ]),
    ).toEqual([
      { prefix: '/checkout', file: 'src/pages/checkout.tsx' },
      { prefix: '/', file: 'a,b.tsx' },
    ]);
    expect(() =>
      checkSourceMap([
        { prefix: '/ok', file: 'ok.tsx' },
        { prefix: '/x', file: '/etc/passwd' },
      ]),
    ).toThrow('Invalid SARIF map entry "/x=/etc/passwd": the file must be relative to the repository root');
  });

  it('refuses a prefix mapped twice', () => {
    expect(() => parseSourceMap('/a=x.ts,/a/=y.ts')).toThrow(
      'Invalid SARIF map entry "/a/=y.ts": the prefix /a is mapped twice',
    );
  });
});
