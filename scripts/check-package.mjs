#!/usr/bin/env node
// The package checks of `npm test`: publint on the package folder, then Are the Types Wrong on a tarball packed
// into a temporary folder of our own. `attw --pack .` would pack into the working tree and delete
// `svc-a11y-sdk-<version>.tgz` afterwards — a user's own tarball of that name included — so the tests never
// write or remove a file they did not create.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
// No lifecycle scripts: dist/ is built earlier in npm test, and prepack would build it a second time.
const env = { ...process.env, npm_config_ignore_scripts: 'true' };
const run = (command, args, options = {}) =>
  execFileSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });

run(bin('publint'), ['--strict']);
const folder = mkdtempSync(join(tmpdir(), 'svc-a11y-pack-'));
try {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', folder], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  run(bin('attw'), [join(folder, packed.filename)]);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
