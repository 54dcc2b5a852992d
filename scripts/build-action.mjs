#!/usr/bin/env node
// Bundles the GitHub Action (src/action/index.ts) into action/index.cjs: one self-contained file that runs from a
// plain checkout of the repository, which is what a runner downloads (no node_modules, no dist/), as GitHub's
// actions/typescript-action template does. The bundle is committed; its third-party licences go beside it.
//   node scripts/build-action.mjs          write action/index.cjs and action/THIRD-PARTY-NOTICES.txt
//   node scripts/build-action.mjs --check  build in memory and fail when the committed files differ (npm test)
//   node scripts/build-action.mjs --head   build from the last commit's sources only (a temporary git worktree), not
//                                          the working tree's: in a tree where others' edits are not committed yet
import { execFileSync } from 'node:child_process';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'action');
const BUNDLE = 'index.cjs';
const NOTICES = 'THIRD-PARTY-NOTICES.txt';
const HEADER = '// generated — do not edit. Source: src/action/; rebuild with `npm run action:build`.';

/**
 * Builds both files in memory from the sources in `sources` (the repository, or a worktree of it whose node_modules
 * links to the repository's): `{ 'index.cjs': text, 'THIRD-PARTY-NOTICES.txt': text }`.
 */
async function bundle(sources = root) {
  const result = await build({
    absWorkingDir: sources,
    // In a worktree, node_modules is a link: its files keep their node_modules/… names, as in the repository.
    preserveSymlinks: sources !== root,
    entryPoints: ['src/action/index.ts'],
    bundle: true,
    platform: 'node',
    // The runner runs node24 (action.yml); node20 syntax keeps the file runnable by every Node the package supports.
    target: 'node20',
    format: 'cjs',
    write: false,
    metafile: true,
    minify: false,
    legalComments: 'none',
    charset: 'utf8',
    // CommonJS has no import.meta. The CLI reads its version through createRequire(import.meta.url) from the
    // package.json above the bundle (the repository's own, in a checkout), and src/cli/main.ts runs the CLI when
    // import.meta.url is the file node was started with: the fragment keeps that check from taking the bundle
    // for the CLI (createRequire ignores a fragment).
    define: { 'import.meta.url': '__actionModuleUrl' },
    banner: {
      js: `${HEADER}\nvar __actionModuleUrl = require('node:url').pathToFileURL(__filename).href + '#action';`,
    },
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text;
  return { [BUNDLE]: text, [NOTICES]: notices(result.metafile, sources) };
}

/** {@link bundle} of the last commit: a detached worktree at HEAD, removed afterwards. */
async function bundleHead() {
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const tree = join(mkdtempSync(join(tmpdir(), 'svc-a11y-action-head-')), 'tree');
  git('worktree', 'add', '--detach', tree, 'HEAD');
  try {
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
    return await bundle(tree);
  } finally {
    git('worktree', 'remove', '--force', tree);
  }
}

/** The licence of every npm package the bundle takes code from, sorted by name. */
function notices(metafile, sources) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const parts = input.split(/[\\/]/);
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const name = parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
    const dir = join(sources, ...parts.slice(0, at + 1), ...name.split('/'));
    if (!packages.has(dir)) packages.set(dir, name);
  }
  const entries = [...packages.entries()]
    .map(([dir, name]) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const licenseFile = readdirSync(dir)
        .filter((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
        .sort()[0];
      const text = licenseFile
        ? readFileSync(join(dir, licenseFile), 'utf8').trim()
        : `(no licence file in the package; package.json says ${manifest.license ?? 'nothing'})`;
      return {
        key: `${name}@${manifest.version}`,
        block: `${name} ${manifest.version} (${manifest.license ?? 'unknown licence'})\n\n${text.replace(/\r\n/g, '\n')}`,
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  return `action/index.cjs bundles code of the following npm packages, under these licences.${rule}${entries.map((e) => e.block).join(rule)}\n`;
}

const files = process.argv.includes('--head') ? await bundleHead() : await bundle();
if (process.argv.includes('--check')) {
  const stale = [];
  for (const [name, text] of Object.entries(files)) {
    const path = join(outDir, name);
    const committed = existsSync(path) ? await readFile(path, 'utf8') : undefined;
    if (committed !== text) stale.push(relative(root, path).split(sep).join('/'));
  }
  if (stale.length) {
    console.error(
      `The action bundle is out of date: ${stale.join(', ')} differ from a fresh build of src/action/ and the CLI and SDK sources it bundles. Run \`npm run action:build\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log('action/ is up to date.');
} else {
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(outDir, name), text);
  console.log(
    `wrote action/${BUNDLE} (${Math.round(Buffer.byteLength(files[BUNDLE]) / 1024)} KiB) and action/${NOTICES}`,
  );
}
