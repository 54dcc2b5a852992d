// Recognising a project and reading it under bounds: which folders each framework reads, what is no project, the
// Next.js basePath read as text, and the walk that follows no symbolic link, opens no FIFO and stops at its cap.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nextBasePath } from '../../../src/cli/routes/base-path.js';
import { defaultExportLine } from '../../../src/cli/routes/default-export.js';
import { detectProject } from '../../../src/cli/routes/detect.js';
import { inferRoutes } from '../../../src/cli/routes/index.js';
import { repositoryAt } from '../../../src/cli/routes/repository.js';
import { walkFiles } from '../../../src/cli/routes/walk.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-a11y-routes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A new project folder holding `files` (path → text). */
function project(files: Record<string, string>): string {
  const root = join(scratch, `p${n++}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(root, { recursive: true });
  return root;
}
// The functions below the inference take the repository's gate; each scratch project is its own repository.
const detect = (root: string) => detectProject(repositoryAt(root), root);
const basePathIn = (root: string) => nextBasePath(repositoryAt(root), root);
const pkg = (deps: Record<string, string>) => JSON.stringify({ dependencies: deps });
const PAGE = 'export default function Page() {}\n';

describe('detectProject', () => {
  it('Next.js: root app/ and pages/ win over src/ (the docs: src/app is ignored when app/ exists)', () => {
    const both = project({ 'package.json': pkg({ next: '15' }), 'app/page.tsx': PAGE, 'src/app/page.tsx': PAGE });
    expect(detect(both)).toMatchObject({ framework: 'next', folders: [{ dir: 'app' }] });
    const src = project({ 'package.json': pkg({ next: '15' }), 'src/app/page.tsx': PAGE, 'src/pages/a.tsx': PAGE });
    expect(detect(src)).toMatchObject({ folders: [{ dir: 'src/app' }, { dir: 'src/pages' }] });
  });

  it('Nuxt 4 reads app/pages/; devDependencies count', () => {
    const root = project({
      'package.json': JSON.stringify({ devDependencies: { nuxt: '4' } }),
      'app/pages/index.vue': '',
    });
    expect(detect(root)).toMatchObject({ framework: 'nuxt', folders: [{ dir: 'app/pages' }] });
  });

  it('React Router 7 is read only when app/routes.ts uses flatRoutes()', () => {
    const flat = project({
      'package.json': pkg({ 'react-router': '7', '@react-router/dev': '7' }),
      'app/routes.ts': "import { flatRoutes } from '@react-router/fs-routes';\nexport default flatRoutes();\n",
      'app/routes/_index.tsx': PAGE,
    });
    expect(detect(flat)).toMatchObject({ framework: 'remix' });
    const config = project({
      'package.json': pkg({ 'react-router': '7' }),
      'app/routes.ts': "export default [index('home.tsx')];\n",
      'app/routes/_index.tsx': PAGE,
    });
    expect(detect(config)).toHaveProperty('reason');
  });

  it('no project: unknown dependencies, a framework without its folder, bad package.json, no HTML', () => {
    expect(detect(project({ 'package.json': pkg({ express: '5' }) }))).toEqual({
      reason: expect.stringContaining('names none of'),
    });
    expect(detect(project({ 'package.json': pkg({ astro: '5' }) }))).toEqual({
      reason: 'it depends on astro but has no src/pages/',
    });
    expect(detect(project({ 'package.json': '{' }))).toEqual({
      reason: expect.stringContaining('package.json could not be read'),
    });
    expect(detect(project({ 'notes.txt': 'x' }))).toHaveProperty('reason');
    expect(detect(project({ 'index.html': '<p>' }))).toMatchObject({
      framework: 'static',
      folders: [{ dir: '.' }],
    });
  });
});

describe('nextBasePath', () => {
  it('takes one string literal; a computed or repeated basePath is unsure', () => {
    expect(basePathIn(project({ 'next.config.js': 'module.exports = { basePath: "/docs" }' }))).toEqual({
      file: 'next.config.js',
      basePath: '/docs',
    });
    expect(basePathIn(project({ 'next.config.ts': 'export default { basePath: process.env.BASE }' }))).toMatchObject({
      unsure: expect.any(String),
    });
    expect(basePathIn(project({ 'next.config.mjs': 'export default {}' }))).toEqual({ file: 'next.config.mjs' });
    expect(basePathIn(project({}))).toBeUndefined();
  });

  it('a flag wins over the config, and an unsure config is said', () => {
    const root = project({
      'package.json': pkg({ next: '15' }),
      'next.config.js': 'const base = "/x"; module.exports = { basePath: base }',
      'app/page.tsx': PAGE,
    });
    const inferred = inferRoutes({ sourceRoot: root });
    expect(inferred).toMatchObject({
      table: { basePath: [] },
      notes: [expect.stringContaining('not a single string')],
    });
    expect(inferRoutes({ sourceRoot: root, basePath: '/y/' })).toMatchObject({ table: { basePath: ['y'] } });
    expect(() => inferRoutes({ sourceRoot: root, basePath: 'y' })).toThrow(/starting with '\/'/);
  });
});

describe('reading route modules', () => {
  it('a Remix module without a default export is a resource route; one too large to read stays a page at line 1', () => {
    const root = project({
      'package.json': pkg({ '@remix-run/react': '2' }),
      'app/routes/feed[.]xml.ts': 'export function loader() {}\n',
      'app/routes/big.tsx': `${'// filler\n'.repeat(60_000)}export function loader() {}\n`,
      'app/routes/about.tsx': `// about\n${PAGE}`,
    });
    const inferred = inferRoutes({ sourceRoot: root });
    expect('table' in inferred && inferred.table.routes.map((r) => [r.pattern, r.line])).toEqual([
      ['/about', 2],
      ['/big', 1],
    ]);
  });

  it('finds the default export line under a shared budget of bytes', () => {
    const root = project({
      'a.tsx': `// a\n${PAGE}`,
      'b.tsx': 'export { Page as default };\n',
      'c.ts': 'export const x = 1;\n',
    });
    const budget = { bytes: 1_000 };
    const repo = repositoryAt(root);
    expect(defaultExportLine(repo, join(root, 'a.tsx'), budget)).toEqual({ line: 2 });
    expect(defaultExportLine(repo, join(root, 'b.tsx'), budget)).toEqual({ line: 1 });
    expect(defaultExportLine(repo, join(root, 'c.ts'), budget)).toEqual({ line: undefined });
    expect(defaultExportLine(repo, join(root, 'a.tsx'), { bytes: 3 })).toEqual({ unread: true });
    expect(defaultExportLine(repo, join(root, 'missing.tsx'))).toEqual({ unread: true });
  });

  it('a FIFO as package.json or next.config.js is never opened', () => {
    const root = project({ 'app/page.tsx': PAGE });
    execFileSync('mkfifo', [join(root, 'package.json')]);
    execFileSync('mkfifo', [join(root, 'next.config.js')]);
    expect(detect(root)).toHaveProperty('reason');
    expect(basePathIn(root)).toBeUndefined();
  });
});

describe('walkFiles', () => {
  it('skips node_modules, dot-folders, symbolic links (in or out of the root) and FIFOs, without hanging', () => {
    const outside = project({ 'secret/page.tsx': PAGE });
    const root = project({
      'a/page.tsx': PAGE,
      'node_modules/x/page.tsx': PAGE,
      '.git/page.tsx': PAGE,
      '.cache/page.tsx': PAGE,
    });
    symlinkSync(join(outside, 'secret'), join(root, 'linked'));
    symlinkSync(join(root, 'a/page.tsx'), join(root, 'alias.tsx'));
    symlinkSync(outside, join(root, '.hidden'));
    execFileSync('mkfifo', [join(root, 'pipe.tsx')]);
    const repo = repositoryAt(root);
    expect(walkFiles(repo, root)).toEqual({ files: ['a/page.tsx'], truncated: false });
    // Each link met is refused through the gate, which names it (a dot-named one is skipped like a dot-folder).
    expect(repo.links).toEqual(['alias.tsx', 'linked']);
    // A routes folder that is itself a symbolic link is not followed either.
    symlinkSync(outside, join(root, 'out'));
    expect(walkFiles(repo, join(root, 'out'))).toEqual({ files: [], truncated: false });
    expect(repo.links).toEqual(['alias.tsx', 'linked', 'out']);
  });

  it('stops at its cap and says so', () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.html`, '<p>']));
    const root = project(files);
    const walked = walkFiles(repositoryAt(root), root, { left: 10 });
    expect(walked.truncated).toBe(true);
    expect(walked.files).toHaveLength(10);
    expect(inferRoutes({ sourceRoot: root, maxEntries: 10 })).toMatchObject({
      table: { truncated: true },
      notes: [expect.stringContaining('stopped listing files after 10 entries')],
    });
  });
});
