// Every link of every page leads somewhere: a relative link names a file or folder of the repository, a `#anchor` a
// heading of its page (GitHub's anchors), and the README — which npmjs.com renders from the package, where relative
// links 404 — links only absolutely, its links to this repository mapped back to files that must exist.
import { describe, expect, it } from 'vitest';
import { linkProblem, REPOSITORY, undefinedReferences } from './links.js';
import { anchorsOf, linksOf, type Page, pagePaths, readPage } from './pages.js';

const pages = pagePaths().map((path) => readPage(path));
const cache = new Map(pages.map((page) => [page.path, page]));
const read = (path: string) => cache.get(path) ?? readPage(path);
const problems = (page: Page) => [
  ...linksOf(page).flatMap((link) => {
    const problem = linkProblem(link, read);
    return problem ? [`${link.page}:${link.line}: ${link.target} ${problem}`] : [];
  }),
  ...undefinedReferences(page),
];

describe('links', () => {
  it('reads every page: the README, CONTRIBUTING, docs/ and the folder READMEs', () => {
    const paths = pages.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/cli.md', 'src/cli/README.md']));
    expect(paths.filter((p) => p.startsWith('api/') || p === 'CHANGELOG.md')).toEqual([]);
    expect(linksOf(read('README.md')).length).toBeGreaterThanOrEqual(10);
  });

  it.each(pages.map((p) => [p.path, p] as const))('every link of %s resolves', (_path, page) => {
    expect(problems(page)).toEqual([]);
  });

  it("the README's links all point at https:// addresses, its repository links at the repository's main branch", () => {
    const links = linksOf(read('README.md'));
    for (const link of links) expect(link.target, `README.md:${link.line}`).toMatch(/^https:\/\//);
    const own = links.filter((l) => l.target.startsWith(`${REPOSITORY}/`));
    expect(own.map((l) => l.target)).toEqual(
      expect.arrayContaining([`${REPOSITORY}/blob/main/docs/cli.md`, `${REPOSITORY}/blob/main/CONTRIBUTING.md`]),
    );
    expect(REPOSITORY).toBe('https://github.com/svc/a11y-sdk');
  });

  it('the check is live: a missing file or anchor, a relative README link, a folder as a blob all fail', () => {
    const sample = readPage(
      'docs/sample.md',
      [
        '# Sample page',
        '',
        '## Exit codes',
        '',
        'See [the CLI](cli.md#exit-codes), [gone](cli.md#no-such-heading), [missing](missing.md),',
        '[this page](#exit-codes), [not here](#nowhere), [a folder](../src/cli/), [code](`x`)',
        `and [docs as a blob](${REPOSITORY}/blob/main/docs) or [undefined][nope].`,
        '',
        '```md',
        '[inside a code block](not-checked.md)',
        '```',
      ].join('\n'),
    );
    const readSample = (path: string) => (path === sample.path ? sample : read(path));
    const found = linksOf(sample).map((link) => [link.target, linkProblem(link, readSample)]);
    expect(found).toEqual([
      ['cli.md#exit-codes', undefined],
      ['cli.md#no-such-heading', '#no-such-heading is no heading of docs/cli.md'],
      ['missing.md', 'names docs/missing.md, which does not exist'],
      ['#exit-codes', undefined],
      ['#nowhere', '#nowhere is no heading of docs/sample.md'],
      ['../src/cli/', undefined],
      [`${REPOSITORY}/blob/main/docs`, 'names the folder docs as a file (blob/ instead of tree/)'],
    ]);
    expect(undefinedReferences(sample)).toEqual(['docs/sample.md: [nope] is used but never defined']);
    expect(linkProblem({ page: 'README.md', line: 1, target: 'docs/cli.md' }, read)).toMatch(/^is relative/);
    expect(
      linkProblem({ page: 'README.md', line: 1, target: `${REPOSITORY}/blob/main/docs/cli.md#exit-codes` }, read),
    ).toBeUndefined();
    expect(linkProblem({ page: 'README.md', line: 1, target: `${REPOSITORY}/blob/main/docs/cli.md#exit` }, read)).toBe(
      '#exit is no heading of docs/cli.md',
    );
  });

  it("anchors are GitHub's: punctuation dropped, code marks kept as text, repeats numbered", () => {
    const page = readPage(
      'x.md',
      '# The CLI: `svc-a11y`\n## Sharing one key across a fleet (CI matrix)\n## Notes\n## Notes\n## SDK › Errors_and retries\n',
    );
    expect([...anchorsOf(page)]).toEqual([
      'the-cli-svc-a11y',
      'sharing-one-key-across-a-fleet-ci-matrix',
      'notes',
      'notes-1',
      'sdk--errors_and-retries',
    ]);
  });
});
