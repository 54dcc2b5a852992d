// The pull request comment and the annotations' files, as pure functions of a prepared report: what a reader sees,
// what is listed and cut, and what never gets in (the key, URL credentials, markup that breaks out of a cell).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { commentBody, commentMarker } from '../../src/cli/report/comment.js';
import { eventOf } from '../../src/action/event.js';
import { ACTION_SETTINGS } from '../../src/cli/index.js';
import { parsedSettings } from '../../src/cli/settings/data.js';
import { ACTION_OWN_INPUTS, InputError, readInputs } from '../../src/action/inputs.js';
import { annotationsOf, prepareReport, toGitHubAnnotations } from '../../src/cli/report/index.js';
import { CHECKOUT, failReport, HOME, v } from '../cli/reporters/fixtures.js';

const KEY = 'svc_live_7Hq2xK9mP4rT8wZ1';
const RUN_URL = 'https://github.com/acme/shop/actions/runs/1';
const ctx = { marker: commentMarker(), runUrl: RUN_URL, headSha: '8d2f1c0e5b7a4f6e9c3d2b1a0f9e8d7c6b5a4f3e' };

describe('commentBody', () => {
  it('starts with the marker; verdict, reasons, new findings grouped by impact with links; the run linked', () => {
    const body = commentBody(prepareReport(failReport()), ctx);
    expect(body.startsWith('<!-- svc-a11y-action -->\n## ❌ Accessibility check: FAIL\n')).toBe(true);
    expect(body).toContain("- Failed: the service's verdict is FAIL");
    expect(body).toContain(
      '**3 new findings** relative to the baseline · 5 in all · fixed 3 · threshold SERIOUS\\_OR\\_WORSE',
    );
    // New ones only (color-contrast, label, link-name), by impact, most severe first.
    expect([...body.matchAll(/^### (\w+) \((\d+)\)$/gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'critical 1',
      'serious 1',
      'minor 1',
    ]);
    expect(body).toContain(
      `| [color-contrast](https://dequeuniversity.com/rules/axe/4.10/color-contrast) | [${HOME}](${HOME}) | a.btn-primary | 1.4.3 | **yes** |`,
    );
    expect(body).toContain(
      `| [label](https://dequeuniversity.com/rules/axe/4.10/label) | [${CHECKOUT}](${CHECKOUT}) | #email | 1.3.1, 4.1.2 | **yes** |`,
    );
    expect(body).toMatch(/\| \[link-name\]\([^)]+\) \| [^|]+ \| footer a \| 1\.4\.3 \| no \|/);
    expect(body).not.toContain('image-alt'); // not new
    expect(body).toContain(`[workflow run](${RUN_URL}) · commit 8d2f1c0`);
    expect(commentMarker('checkout')).toBe('<!-- svc-a11y-action:checkout -->');
  });

  it('never holds the key or URL credentials, and API text cannot break out of its cell or start markup', () => {
    const report = failReport();
    report.violations = [
      v({
        isNew: true,
        impact: 'critical',
        ruleId: `rule ${KEY}`,
        url: `https://user:p4ss@shop.example.com/?api_key=${KEY}`,
        target: 'a | b\n## injected <img src=x onerror=alert(1)>',
        helpUrl: 'javascript:alert(1)',
      }),
    ];
    report.check.appUrl = `https://admin:hunter2@app.example.com/ci/checks/1?token=${KEY}`;
    const body = commentBody(prepareReport(report, { secrets: [KEY] }), ctx);
    expect(body).not.toContain(KEY);
    expect(body).not.toMatch(/p4ss|hunter2/);
    expect(body).not.toContain('javascript:');
    expect(body).not.toMatch(/^## injected/m);
    expect(body).not.toMatch(/(?<!\\)<img/); // escaped as \\<img: shown as text
    expect(body).not.toMatch(/\]\(https:\/\/[^)]*@/); // no userinfo in a link, not even a redacted one
    const row = body.split('\n').find((l) => l.startsWith('| rule'))!;
    // Five cells: the pipe in the selector is escaped, its line break a <br>.
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(5);
  });

  it("lists at most maxFindings new findings and counts the rest; stays under GitHub's limit", () => {
    const report = failReport();
    report.violations = Array.from({ length: 400 }, (_, i) =>
      v({ isNew: true, impact: 'critical', target: `img:nth-of-type(${i})${'x'.repeat(250)}`, fingerprint: `fp${i}` }),
    );
    report.check.newCounts = { critical: 400, serious: 0, moderate: 0, minor: 0 };
    const body = commentBody(prepareReport(report), { ...ctx, maxFindings: 300 });
    expect(body.length).toBeLessThanOrEqual(65_536);
    const listed = body.split('\n').filter((l) => l.startsWith('| [color-contrast]')).length;
    expect(listed).toBeGreaterThan(50);
    expect(listed).toBeLessThan(300);
    expect(body).toContain(`_… ${400 - listed} more new findings not listed: see the run's summary and reports._`);
    expect(
      commentBody(prepareReport(report), ctx)
        .split('\n')
        .filter((l) => l.startsWith('| [color-contrast]')),
    ).toHaveLength(50);
  });

  it('without a report: UNKNOWN, the check did not run, and the (already redacted) reasons', () => {
    const body = commentBody(undefined, {
      ...ctx,
      errors: ['--fail-on must be one of NEW_CRITICAL, ANY_CRITICAL, SERIOUS_OR_WORSE, NONE, got "x"'],
    });
    expect(body).toContain('## ⚠️ Accessibility check: UNKNOWN');
    expect(body).toContain('The check did not run, so nothing was judged.');
    expect(body).toContain('- --fail-on must be one of NEW\\_CRITICAL');
  });
});

describe('annotations with a source map', () => {
  it('puts a finding on the file its page maps to (longest prefix), line 1; the CLI lines keep their form', () => {
    const prepared = prepareReport(failReport());
    const sourceMap = [
      { prefix: '/', file: 'src/pages/home.tsx' },
      { prefix: '/checkout', file: 'src/pages/checkout,v2.tsx' },
    ];
    const withFiles = annotationsOf(prepared, { sourceMap });
    const byRule = Object.fromEntries(withFiles.filter((a) => a.kind === 'error').map((a) => [a.title, a]));
    expect(byRule['New critical accessibility finding: color-contrast']).toMatchObject({
      file: 'src/pages/home.tsx',
      line: 1,
    });
    expect(byRule['critical accessibility finding: image-alt']).toMatchObject({
      file: 'src/pages/checkout,v2.tsx',
      line: 1,
    });
    expect(toGitHubAnnotations(prepared, { sourceMap })).toContain(
      `::error file=src/pages/checkout%2Cv2.tsx,line=1,title=critical accessibility finding%3A image-alt::image-alt at img.logo on ${CHECKOUT}%0AWCAG 1.1.1%0AFix any of the following:%0A  Element has insufficient color contrast%0AHelp: https://dequeuniversity.com/rules/axe/4.10/image-alt`,
    );
    // Without a map, no file: the lines are those the CLI has always printed.
    expect(toGitHubAnnotations(prepared).every((l) => !l.includes('file='))).toBe(true);
    expect(annotationsOf(prepared).map((a) => a.file)).toEqual(annotationsOf(prepared).map(() => undefined));
  });
});

const ACTION_YML = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, unknown>;
};

describe('inputs and the event', () => {
  const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

  it('shard is passed on to the CLI as its --shard (which checks it), for one job of a matrix', () => {
    const inputs = readInputs(reader({ urls: 'https://a.example/', shard: '2/4' }));
    expect(inputs.settings.shard).toBe('2/4');
    expect(parsedSettings(inputs.settings)).toEqual({ values: { shard: '2/4' }, positionals: ['https://a.example/'] });
    expect(parsedSettings(readInputs(reader({ urls: 'https://a.example/' })).settings).values).toEqual({});
  });

  it("action.yml's inputs are the CLI settings' declared inputs and the action's own, each once", () => {
    const declared = ACTION_SETTINGS.map((s) => s.input);
    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(ACTION_YML.inputs).sort()).toEqual([...declared, ...ACTION_OWN_INPUTS].sort());
    // Lists are read one a line: the pages and the repeatable flags.
    expect(ACTION_SETTINGS.filter((s) => s.lines).map((s) => s.input)).toEqual(['urls', 'sarif-map', 'journeys']);
  });

  it('reads lines, booleans as YAML writes them, and refuses other values naming the input', () => {
    const inputs = readInputs(
      reader({
        urls: ' https://a.example/ \n\n# a comment\nhttps://b.example/',
        comment: 'False',
        'sarif-map': '/=src/a.tsx\n/x=src/x.tsx',
      }),
    );
    expect(inputs).toMatchObject({
      settings: { urls: ['https://a.example/', 'https://b.example/'], sourceMap: ['/=src/a.tsx', '/x=src/x.tsx'] },
      comment: false,
      setBaseline: 'auto',
      ifNoKey: 'fail',
      apiKey: undefined,
    });
    expect(() => readInputs(reader({ comment: 'yes' }))).toThrow(
      new InputError('input comment must be true or false, got "yes"'),
    );
    expect(() => readInputs(reader({ 'if-no-key': 'ignore' }))).toThrow(
      'input if-no-key must be one of fail, skip, got "ignore"',
    );
    expect(() => readInputs(reader({ 'comment-key': 'a -->' }))).toThrow(/input comment-key must be/);
  });

  it('tells a fork from a branch of the repository, and a push to the default branch from any other', () => {
    const pr = (head: string | null) => ({
      pull_request: {
        number: 7,
        head: { sha: 'abc1234', repo: head === null ? null : { full_name: head } },
        base: { repo: { full_name: 'acme/shop' } },
      },
    });
    expect(eventOf('pull_request', pr('acme/shop')).pullRequest).toMatchObject({ number: 7, fork: false });
    expect(eventOf('pull_request', pr('someone/shop')).pullRequest).toMatchObject({
      fork: true,
      headRepository: 'someone/shop',
    });
    expect(eventOf('pull_request_target', pr(null)).pullRequest).toMatchObject({
      fork: true,
      headRepository: undefined,
    });
    const push = (ref: string, defaultBranch = 'main') =>
      eventOf('push', { ref, repository: { default_branch: defaultBranch } });
    expect(push('refs/heads/main').pushToDefaultBranch).toBe(true);
    expect(push('refs/heads/trunk', 'trunk').pushToDefaultBranch).toBe(true);
    expect(push('refs/heads/main-2').pushToDefaultBranch).toBe(false);
    expect(push('refs/tags/main').pushToDefaultBranch).toBe(false);
    expect(
      eventOf('workflow_dispatch', { ref: 'refs/heads/main', repository: { default_branch: 'main' } })
        .pushToDefaultBranch,
    ).toBe(false);
  });
});
