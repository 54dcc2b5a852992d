// `--changed-since <ref>` (src/cli/gate/changed-since.ts): on a scratch git repository, the pages whose --sarif-map
// files changed since the ref are kept, with every page no entry maps; nothing changed → exit 0 saying no page
// was affected, nothing sent; a ref that is not a commit → exit 2.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affectedPages, changedFiles, globToRegExp } from '../../src/cli/gate/changed-since.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';

const SHOP = 'https://shop.example.com';
const MAP = [
  { prefix: '/checkout', file: 'src/pages/checkout/**' },
  { prefix: '/products', file: 'src/pages/products.tsx' },
  { prefix: '/help', file: 'docs/help' },
];
let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
const write = async (path: string, text: string) => {
  await mkdir(join(repo, path, '..'), { recursive: true });
  await writeFile(join(repo, path), text);
};

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'svc-a11y-git-'));
  git('init', '-q', '-b', 'main');
  await write('src/pages/checkout/pay.tsx', 'v1');
  await write('src/pages/products.tsx', 'v1');
  await write('docs/help/index.md', 'v1');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('tag', 'base');
});

describe('globs and affected pages', () => {
  it('globToRegExp: ** crosses folders, * does not, a plain path is a file or a folder', () => {
    expect(globToRegExp('src/pages/checkout/**').test('src/pages/checkout/a/b.tsx')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/x/a.ts')).toBe(false);
    expect(globToRegExp('src/**/a.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('docs/help').test('docs/help/index.md')).toBe(true);
    expect(globToRegExp('docs/help').test('docs/helpers.md')).toBe(false);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });

  it('keeps pages mapped to a changed file and every unmapped page; skips the rest', () => {
    const urls = [`${SHOP}/checkout/pay`, `${SHOP}/products/shoe`, `${SHOP}/about`, `${SHOP}/help/faq`];
    expect(affectedPages(urls, MAP, ['src/pages/checkout/pay.tsx'])).toEqual({
      kept: [`${SHOP}/checkout/pay`, `${SHOP}/about`],
      unmapped: [`${SHOP}/about`],
      skipped: [`${SHOP}/products/shoe`, `${SHOP}/help/faq`],
      changedFiles: ['src/pages/checkout/pay.tsx'],
    });
  });
});

describe('changedFiles on a scratch repository', () => {
  it('lists files changed since the ref (committed or not, renamed under both names)', async () => {
    expect(changedFiles('base', repo)).toEqual([]);
    await write('src/pages/products.tsx', 'v2');
    git('mv', 'docs/help/index.md', 'docs/help/start.md');
    expect(changedFiles('base', repo).sort()).toEqual([
      'docs/help/index.md',
      'docs/help/start.md',
      'src/pages/products.tsx',
    ]);
    git('commit', '-qam', 'change');
    expect(changedFiles('base', repo).sort()).toEqual([
      'docs/help/index.md',
      'docs/help/start.md',
      'src/pages/products.tsx',
    ]);
  });

  it('a ref that is not a commit, or one that looks like an option, is a usage error naming it', () => {
    expect(() => changedFiles('no-such-branch', repo)).toThrow(UsageError);
    expect(() => changedFiles('no-such-branch', repo)).toThrow(
      /--changed-since: no-such-branch is not a commit in the repository/,
    );
    expect(() => changedFiles('--output=/tmp/x', repo)).toThrow(/needs a git ref/);
  });
});

describe('svc-a11y ci --changed-since (in process)', () => {
  let sim: Simulator;
  let proxy: RecordingProxy;
  const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url });
  const maps = MAP.flatMap((e) => ['--sarif-map', `${e.prefix}=${e.file}`]);
  const urls = [`${SHOP}/clean/about`, `${SHOP}/checkout/pay`, `${SHOP}/products/shoe`, `${SHOP}/help/faq`];
  beforeAll(async () => {
    sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
    proxy = await startRecordingProxy(sim.url);
  });
  afterAll(async () => {
    await proxy.close();
    await sim.stop();
  });

  it('checks only the pages whose mapped files changed, plus unmapped ones, and says so', async () => {
    const r = await runCliLikeBinary(['ci', ...urls, ...maps, '--changed-since', 'base', '--fail-on', 'NONE'], {
      env: env(),
      cwd: repo,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '--changed-since base: 3 files changed; checking 3 of 4 pages (2 mapped to a changed file, 1 with no --source-map entry, kept), skipping 1.',
    );
    expect(proxy.created().at(-1)!.urls.sort()).toEqual([
      `${SHOP}/clean/about`,
      `${SHOP}/help/faq`,
      `${SHOP}/products/shoe`,
    ]);
  });

  it('nothing changed since the ref → exit 0 saying no page was affected; no check, no report', async () => {
    const before = proxy.requests.length;
    const report = join(repo, 'out', 'a11y.xml');
    const r = await runCliLikeBinary(
      ['ci', ...urls, ...maps, '--changed-since', 'HEAD', '--report', `junit=${report}`],
      {
        env: env(),
        cwd: repo,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('--changed-since HEAD: no file changed, so no page was affected; nothing to check.');
    expect(proxy.requests.length).toBe(before);
    expect(() => execFileSync('test', ['-e', join(repo, 'out')])).toThrow();
  });

  it('changes that touch no mapped page, with every page mapped → exit 0 saying no page was affected', async () => {
    await write('src/pages/checkout/pay.tsx', 'v3');
    const mapped = [`${SHOP}/products/shoe`, `${SHOP}/help/faq`];
    const r = await runCliLikeBinary(['ci', ...mapped, ...maps, '--changed-since', 'HEAD'], { env: env(), cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('No page was affected by the changes since HEAD; nothing to check.');
  });

  it('without --sarif-map, or with a ref that is not a commit → exit 2; nothing sent', async () => {
    const before = proxy.requests.length;
    const noMap = await runCliLikeBinary(['ci', ...urls, '--changed-since', 'base'], { env: env(), cwd: repo });
    expect(noMap.code).toBe(2);
    expect(noMap.stderr).toContain('--changed-since needs --source-map entries');
    const badRef = await runCliLikeBinary(['ci', ...urls, ...maps, '--changed-since', 'nope'], {
      env: env(),
      cwd: repo,
    });
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('--changed-since: nope is not a commit');
    expect(proxy.requests.length).toBe(before);
  });
});
