// `npm start`: build when dist/ is missing or older than src/, then run the demo (a CI check end to end
// against the local simulator; with SVC_BASE_URL and SVC_API_KEY set, against the real service).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');

function newest(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
}

if (!existsSync(cli) || statSync(cli).mtimeMs < Math.max(newest(join(root, 'src')), newest(join(root, 'generated')))) {
  // A first build takes ~30–40 s on a 2-core machine: one line on stderr says so (the build's own log is shown only
  // if it fails), so the wait never reads as a hang and stdout stays the demo's report.
  const started = Date.now();
  process.stderr.write(
    `Building dist/ ${existsSync(cli) ? '(sources changed)' : 'for the first run'} (about 30–40 s)… `,
  );
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    process.stderr.write(`failed:\n${build.stdout}${build.stderr}`);
    process.exit(build.status ?? 1);
  }
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n\n`);
}
const demo = spawnSync(process.execPath, [cli, 'demo', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(demo.status ?? 1);
