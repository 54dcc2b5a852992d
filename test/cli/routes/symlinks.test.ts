// Route files only from inside the repository: a symbolic link anywhere between the repository root and a file the
// inference reads (`src/`, the routes folder, a sub-folder, a route module, package.json, next.config.js, a source
// root below the repository root) is refused, never read, and named in one warning line; the root itself may be
// reached through a link; and no file of src/cli/routes but the gate (repository.ts) touches the disk itself.
// Each repository here is a scratch folder marked by a `.git` folder, with a folder of route files beside it,
// outside, that a link points at.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeTableOf } from '../../../src/cli/gate/route-table.js';
import { type Inference, inferRoutes } from '../../../src/cli/routes/index.js';
import type { Setting } from '../../../src/cli/settings/settings.js';
import { runCliLikeBinary } from '../../support/cli-in-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-a11y-route-links-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A new folder holding `files` (path → text); with `git`, marked as a repository root. */
function folder(files: Record<string, string>, { git = false } = {}): string {
  const root = join(scratch, `f${n++}`);
  mkdirSync(root, { recursive: true });
  if (git) mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const repository = (files: Record<string, string>) => folder(files, { git: true });
const link = (target: string, path: string) => {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
};

const PAGE = 'export default function Page() {}\n';
const NEXT = JSON.stringify({ dependencies: { next: '15' } });
// What a link points at: a folder outside every repository, full of route files.
const outside = folder({
  'package.json': NEXT,
  'next.config.js': 'module.exports = { basePath: "/outside" }',
  'app/page.tsx': PAGE,
  'app/secret/page.tsx': PAGE,
  'src/app/page.tsx': PAGE,
});

const filesOf = (inferred: Inference) => ('table' in inferred ? inferred.table.routes.map((r) => r.file).sort() : []);
// The one warning line, naming exactly these links (relative to the repository root).
const warningNaming = (...links: string[]) => [
  expect.stringMatching(
    new RegExp(
      `^warning: sarif map: the symbolic links? ${links.join(', ').replace(/[.]/g, '\\.')} (is|are) not followed \\(route files are read only inside the repository`,
    ),
  ),
];

describe('route files only from inside the repository', () => {
  it('a normal repository maps, with no warning', () => {
    const root = repository({ 'package.json': NEXT, 'src/app/page.tsx': PAGE, 'src/app/blog/page.tsx': PAGE });
    const inferred = inferRoutes({ sourceRoot: root });
    expect(filesOf(inferred)).toEqual(['src/app/blog/page.tsx', 'src/app/page.tsx']);
    expect(inferred.warnings).toEqual([]);
  });

  it('src/ a link to a folder outside: nothing read through it, the link named', () => {
    const root = repository({ 'package.json': NEXT });
    link(join(outside, 'src'), join(root, 'src'));
    const inferred = inferRoutes({ sourceRoot: root });
    expect(inferred).toMatchObject({ reason: expect.stringContaining('has no app/, pages/, src/app/') });
    expect(filesOf(inferred)).toEqual([]);
    expect(inferred.warnings).toEqual(warningNaming('src'));
  });

  it('the routes folder a link (src/app): the other routes folder still maps', () => {
    const root = repository({ 'package.json': NEXT, 'src/pages/about.tsx': PAGE });
    link(join(outside, 'app'), join(root, 'src/app'));
    const inferred = inferRoutes({ sourceRoot: root });
    expect(filesOf(inferred)).toEqual(['src/pages/about.tsx']);
    expect(inferred.warnings).toEqual(warningNaming('src/app'));
  });

  it('a nested sub-folder and a route file as links: left out, both named in one line', () => {
    const root = repository({ 'package.json': NEXT, 'app/page.tsx': PAGE, 'app/about/.keep': '' });
    link(join(outside, 'app/secret'), join(root, 'app/blog'));
    link(join(outside, 'app/secret/page.tsx'), join(root, 'app/about/page.tsx'));
    const inferred = inferRoutes({ sourceRoot: root });
    expect(filesOf(inferred)).toEqual(['app/page.tsx']);
    expect(inferred.warnings).toEqual(warningNaming('app/about/page.tsx', 'app/blog'));
  });

  it('package.json and next.config.js as links: not read (no framework, no base path from outside)', () => {
    const noPackage = repository({ 'app/page.tsx': PAGE });
    link(join(outside, 'package.json'), join(noPackage, 'package.json'));
    const withoutPackage = inferRoutes({ sourceRoot: noPackage });
    expect(withoutPackage).toMatchObject({ reason: expect.stringContaining('there is no package.json') });
    expect(withoutPackage.warnings).toEqual(warningNaming('package.json'));
    const noConfig = repository({ 'package.json': NEXT, 'app/page.tsx': PAGE });
    link(join(outside, 'next.config.js'), join(noConfig, 'next.config.js'));
    const withoutConfig = inferRoutes({ sourceRoot: noConfig });
    expect(withoutConfig).toMatchObject({ table: { basePath: [] }, notes: [] });
    expect(withoutConfig.warnings).toEqual(warningNaming('next.config.js'));
  });

  it('a source root below the repository root reached through a link is refused too', () => {
    const root = repository({ 'README.md': '' });
    link(outside, join(root, 'web'));
    const inferred = inferRoutes({ sourceRoot: join(root, 'web') });
    expect(filesOf(inferred)).toEqual([]);
    expect(inferred.warnings).toEqual(warningNaming('web'));
  });

  it('the repository root itself may be reached through a link (real paths are compared)', () => {
    const root = repository({ 'package.json': NEXT, 'app/page.tsx': PAGE });
    const alias = join(scratch, `alias${n++}`);
    symlinkSync(root, alias);
    const inferred = inferRoutes({ sourceRoot: alias });
    expect(filesOf(inferred)).toEqual(['app/page.tsx']);
    expect(inferred.warnings).toEqual([]);
  });
});

describe('the warning on stderr', () => {
  const byDefault: Setting<string | undefined> = { value: undefined, source: { kind: 'default' } };

  it('is said once, even where notes are not (a quiet run), and before an explicit auto fails', () => {
    const root = repository({ 'package.json': NEXT, 'app/page.tsx': PAGE });
    link(join(outside, 'app/secret'), join(root, 'app/blog'));
    const warned: string[] = [];
    const table = routeTableOf({
      items: [],
      sourceRoot: byDefault,
      basePath: byDefault,
      cwd: root,
      warn: (l) => warned.push(l),
    });
    expect(table?.routes.map((r) => r.file)).toEqual(['app/page.tsx']);
    expect(warned).toEqual(warningNaming('app/blog'));

    const linked = repository({ 'package.json': NEXT });
    link(join(outside, 'app'), join(linked, 'app'));
    warned.length = 0;
    expect(() =>
      routeTableOf({
        items: ['auto'],
        sourceRoot: byDefault,
        basePath: byDefault,
        cwd: linked,
        warn: (l) => warned.push(l),
      }),
    ).toThrow(/--source-map auto: no routes can be inferred/);
    expect(warned).toEqual(warningNaming('app'));
  });

  it('svc-a11y ci --quiet: one warning line naming the link, then the usage error (exit 2), nothing sent', async () => {
    const root = repository({ 'package.json': NEXT });
    link(join(outside, 'src'), join(root, 'src'));
    const r = await runCliLikeBinary(
      ['ci', 'https://shop.example.com/', '--sarif-map', 'auto', '--source-root', root, '--quiet'],
      { env: { SVC_API_KEY: 'sk_test_unused', SVC_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('warning:'))).toEqual(warningNaming('src'));
    const error = lines.findIndex((l) => /--source-map auto: no routes can be inferred/.test(l));
    expect(error, r.stderr).toBeGreaterThan(lines.findIndex((l) => l.startsWith('warning:')));
  });
});

describe('one gate', () => {
  it('no file of src/cli/routes but repository.ts imports node:fs or reads files itself', () => {
    const dir = join(import.meta.dirname, '../../../src/cli/routes');
    const touching = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && name !== 'repository.ts')
      .filter((name) =>
        /from '(node:)?fs(\/promises)?'|read-file\.js'|require\(/.test(readFileSync(join(dir, name), 'utf8')),
      );
    expect(touching).toEqual([]);
  });
});
