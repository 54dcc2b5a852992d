// Every code block of every page (README, CONTRIBUTING, docs/, the folder READMEs) is checked the way its language
// allows, or listed in NOT_CHECKED with the reason it is not — a block no check claims fails, so none goes stale
// silently:
// - ts: copied as a user copies it, each block a module of its own in a project outside this repository that imports
//   the package as published (dist/ and package.json, linked under node_modules), type-checked strict under NodeNext;
// - sh: run by bash with `npx svc-a11y …` calling the built CLI, which parses every flag (`--help` appended: an
//   unknown flag or a missing value exits 2) and, for the blocks in LIVE, runs the command for real against the
//   simulator; `npm run X` must name a script, `npm install X` this package or one of its dependencies; any other
//   command is unknown (an empty PATH);
// - json: parsed, then checked as the CLI checks a config file or a suppressions file, or, for an MCP client's
//   `mcpServers` (`servers`), as the built CLI parses the server's arguments;
// - yaml: parsed; workflows go through GitHub's own parser in test/action/workflows.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROXY_VARIABLES } from '../../src/cli/io/proxy.js';
import { checkConfig } from '../../src/cli/settings/config.js';
import { SETTINGS } from '../../src/cli/settings/settings.js';
import { checkSuppressions } from '../../src/cli/verdict/suppressions.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { cliPath } from '../support/cli.js';
import { typecheckProject } from '../support/typecheck.js';
import { ensureBuilt } from '../reliability/support.js';
import { recipeOf } from './ci-recipes.js';
import { type CodeBlock, pagePaths, ROOT, readPage } from './pages.js';

/** Blocks no check reads, each with its reason: `page`, and the start of the block (or every block of the page). */
const NOT_CHECKED: ReadonlyArray<{ page: string; startsWith?: string; reason: string }> = [
  { page: 'THIRD-PARTY-NOTICES.md', reason: 'licence texts, quoted as their authors wrote them' },
  {
    page: 'docs/observability.md',
    startsWith: '[a11y] → POST',
    reason: 'sample log lines; their format is asserted in test/observe/debug-log.test.ts',
  },
  { page: 'test/fixtures/README.md', startsWith: 'The MIT License', reason: "a fixture's licence, quoted" },
  {
    page: 'docs/cli.md',
    startsWith: '$ svc-a11y doctor\n',
    reason: "a sample of svc-a11y doctor's output; its lines are asserted in test/cli/doctor.test.ts",
  },
  {
    page: 'CONTRIBUTING.md',
    startsWith: '$ npm run generate\n',
    reason: 'a transcript of the maintainer path that test/spec-diff/maintainer-path.test.ts plays',
  },
  {
    page: 'CONTRIBUTING.md',
    startsWith: '$ npm run changeset:check\n',
    reason: 'transcripts of changeset:check in that path (its messages are asserted in test/spec-diff/)',
  },
  {
    page: 'CONTRIBUTING.md',
    startsWith: 'changeset:check: FAIL: commit',
    reason: 'a transcript of changeset:check in that path (its messages are asserted in test/spec-diff/)',
  },
];

/** `sh` blocks run for real against the simulator (their URLs are on its verified site), by page and start. */
const LIVE: ReadonlyArray<{ page: string; startsWith: string }> = [
  { page: 'README.md', startsWith: 'export SVC_API_KEY=' },
  { page: 'docs/cli.md', startsWith: 'export SVC_API_KEY=' },
];

const blocks = pagePaths().flatMap((path) => readPage(path).blocks);
const where = (b: CodeBlock) => `${b.page}:${b.line}`;
const listed = (b: CodeBlock) =>
  NOT_CHECKED.find((n) => n.page === b.page && (n.startsWith === undefined || b.text.startsWith(n.startsWith)));
const isLive = (b: CodeBlock) => LIVE.some((l) => l.page === b.page && b.text.startsWith(l.startsWith));
const byLang = (...langs: string[]) => blocks.filter((b) => langs.includes(b.lang) && !listed(b));
const ts = byLang('ts', 'typescript');
const sh = byLang('sh', 'bash', 'shell');
const json = byLang('json');
// CI recipes of other CIs (GitLab, Jenkins, Azure Pipelines) are checked by ci-recipes.test.ts.
const recipes = blocks.filter((b) => recipeOf(b) !== undefined);
const yaml = byLang('yaml', 'yml').filter((b) => recipeOf(b) === undefined);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-docs-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('every code block of every page', () => {
  it('is claimed by a check, or listed with the reason it is not (no listing left without its block)', () => {
    const checked = new Set([...ts, ...sh, ...json, ...yaml, ...recipes]);
    const unclaimed = blocks
      .filter((b) => !checked.has(b) && !listed(b))
      .map((b) => `${where(b)} (${b.lang || 'no language'})`);
    expect(unclaimed).toEqual([]);
    const stale = NOT_CHECKED.filter((n) => !blocks.some((b) => listed(b) === n)).map((n) => n.startsWith ?? n.page);
    expect(stale).toEqual([]);
    const liveStale = LIVE.filter((l) => !sh.some((b) => b.page === l.page && b.text.startsWith(l.startsWith)));
    expect(liveStale).toEqual([]);
    // The pages this test exists for, so that a reader that finds nothing cannot pass.
    expect(new Set(ts.map((b) => b.page))).toEqual(
      new Set([
        'README.md',
        'docs/sdk.md',
        'docs/fleet.md',
        'docs/webhooks.md',
        'docs/testing.md',
        'docs/observability.md',
      ]),
    );
    expect(sh.filter((b) => b.page === 'README.md')).toHaveLength(3);
  });
});

describe('ts blocks', () => {
  let project: string;
  beforeAll(async () => {
    project = join(dir, 'ts');
    await mkdir(join(project, 'node_modules', '@svc'), { recursive: true });
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'docs-user', private: true, type: 'module' }),
    );
    // The package as published, plus what a user of the samples installs beside it (Node's and Express' types).
    await symlink(ROOT, join(project, 'node_modules', '@svc', 'a11y-sdk'), 'dir');
    for (const dep of ['@types', 'express', 'redis', '@redis', 'undici'])
      await symlink(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
    const compilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      skipLibCheck: true,
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
    };
    await writeFile(join(project, 'tsconfig.base.json'), JSON.stringify({ compilerOptions }));
  });

  // `tsc -p config`, in this process (see test/support/typecheck.ts): what it prints, '' when it compiles.
  const tsc = async (config: string) => typecheckProject(config).output;

  it('each compiles as written (strict, NodeNext, one module each); errors name the page and line', async () => {
    // As written: a block that uses a name it does not define fails, as it would for a reader who pastes it.
    const files = ts.map((block) => ({
      name: `${where(block).replace(/[/.:]/g, '_')}.ts`,
      source: `${block.text}export {};\n`,
    }));
    for (const { name, source } of files) await writeFile(join(project, name), source);
    const config = join(project, 'tsconfig.json');
    await writeFile(config, JSON.stringify({ extends: './tsconfig.base.json', files: files.map((f) => f.name) }));
    expect(await tsc(config)).toBe('');
  }, 90_000);

  it('the check is live: a block using a name the package does not export fails', async () => {
    await writeFile(
      join(project, 'wrong.ts'),
      "import { notAnExportOfTheSdk } from '@svc/a11y-sdk';\nvoid notAnExportOfTheSdk;\n",
    );
    const config = join(project, 'tsconfig.wrong.json');
    await writeFile(config, JSON.stringify({ extends: './tsconfig.base.json', files: ['wrong.ts'] }));
    expect(await tsc(config)).toMatch(
      /wrong\.ts\(1,\d+\): error TS2305: Module '"@svc\/a11y-sdk"' has no exported member 'notAnExportOfTheSdk'/,
    );
  }, 90_000);
});

describe('sh blocks', () => {
  let sim: Simulator;
  beforeAll(async () => {
    ensureBuilt();
    sim = await startSimulator({ durations: { ciCheck: 200 } });
  });
  afterAll(() => sim.stop());

  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  // Bash only (the PATH is empty): npx knows svc-a11y, npm knows its scripts and what this package depends on.
  // A bare `npx svc-a11y` resolves the unscoped npm package svc-a11y (not this one) unless this package was
  // installed first: on a machine that has not, the docs must say `npx -p @svc/a11y-sdk svc-a11y`.
  const PRELUDE = `
INSTALLED=
npx() {
  if [ "$1" = -p ]; then
    [ "$2" = "$PACKAGE" ] || { echo "npx -p $2: not this package" >&2; return 1; }
    shift 2
  elif [ -z "$INSTALLED" ]; then
    echo "npx $1: resolves the unscoped npm package, not $PACKAGE (install it first, or npx -p $PACKAGE $1)" >&2
    return 1
  fi
  if [ "$1" != svc-a11y ]; then echo "npx $1: only svc-a11y is known" >&2; return 127; fi
  shift
  if [ -n "$LIVE" ]; then
    local code=0
    SVC_API_KEY="$SIM_KEY" SVC_BASE_URL="$SIM_URL" "$NODE" "$CLI" "$@" || code=$?
    echo "svc-a11y exit $code" >&2; return 0
  fi
  "$NODE" "$CLI" "$@" --help >/dev/null || { echo "svc-a11y $*: refused (exit $?)" >&2; return 2; }
}
known() { [[ " $2 " == *" $1 "* ]]; }
npm() {
  case "$1" in
    ci) return 0 ;;
    install|i) shift; for a in "$@"; do [[ "$a" == -* ]] || known "$a" "$PACKAGES" || { echo "npm install $a: not this package nor a dependency" >&2; return 1; }; [ "$a" = "$PACKAGE" ] && INSTALLED=1; done; return 0 ;;
    run) known "$2" "$SCRIPTS" || { echo "npm run $2: no such script" >&2; return 1; } ;;
    start|test) known "$1" "$SCRIPTS" || { echo "npm $1: no such script" >&2; return 1; } ;;
    *) echo "npm $1: not a command the docs use" >&2; return 1 ;;
  esac
}
`;

  function bash(block: string, cwd: string, live: boolean): Promise<{ code: number | null; stderr: string }> {
    const env = {
      PATH: join(dir, 'empty-path'),
      HOME: cwd,
      NODE: process.execPath,
      CLI: cliPath,
      SCRIPTS: Object.keys(pkg.scripts).join(' '),
      PACKAGE: pkg.name,
      PACKAGES: [pkg.name, ...Object.keys({ ...pkg.devDependencies, ...pkg.peerDependencies })].join(' '),
      SIM_KEY: sim.keys.full,
      SIM_URL: sim.url,
      LIVE: live ? '1' : '',
    };
    return new Promise((resolve, reject) => {
      const child = spawn('/bin/bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', `${PRELUDE}\n${block}`], {
        cwd,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
  }

  it.each(sh.map((b) => [where(b), b] as const))(
    '%s runs: every command known, every svc-a11y flag taken',
    async (name, block) => {
      const cwd = join(dir, name.replace(/[/.:]/g, '_'));
      await mkdir(join(dir, 'empty-path'), { recursive: true });
      await mkdir(cwd, { recursive: true });
      const result = await bash(block.text, cwd, false);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
    60_000,
  );

  it.each(sh.filter(isLive).map((b) => [where(b), b] as const))(
    '%s runs for real against the simulator: a verdict, and the reports it names',
    async (name, block) => {
      const cwd = join(dir, `live-${name.replace(/[/.:]/g, '_')}`);
      await mkdir(cwd, { recursive: true });
      const result = await bash(block.text, cwd, true);
      expect(result.code, result.stderr).toBe(0);
      // 0 (PASS) or 1 (FAIL): the check was judged; 2, 3 or 4 would be a command that does not work as written.
      expect(result.stderr).toMatch(/svc-a11y exit [01]\n$/);
      for (const [, file] of block.text.matchAll(/--report \w+=(\S+)/g))
        expect(existsSync(join(cwd, file!)), file).toBe(true);
    },
    60_000,
  );

  it('the check is live: an unknown flag, a script that does not exist, an unknown command fail', async () => {
    const cwd = join(dir, 'wrong');
    await mkdir(join(dir, 'empty-path'), { recursive: true });
    await mkdir(cwd, { recursive: true });
    expect(
      await bash('npx -p @svc/a11y-sdk svc-a11y ci https://a.example/ --fail-onn NEW_CRITICAL\n', cwd, false),
    ).toEqual({
      code: 2,
      stderr: expect.stringContaining('svc-a11y ci https://a.example/ --fail-onn NEW_CRITICAL: refused (exit 2)'),
    });
    // Lighthouse CI users hit this with `npx lhci`: the unscoped name is another package.
    expect(await bash('npx svc-a11y ci https://a.example/\n', cwd, false)).toEqual({
      code: 1,
      stderr: expect.stringContaining('npx svc-a11y: resolves the unscoped npm package'),
    });
    expect(await bash('npm install @svc/a11y-sdk\nnpx svc-a11y ci https://a.example/\n', cwd, false)).toEqual({
      code: 0,
      stderr: '',
    });
    expect(await bash('npm run no-such-script\n', cwd, false)).toEqual({
      code: 1,
      stderr: 'npm run no-such-script: no such script\n',
    });
    expect(await bash('npm install left-pad\n', cwd, false)).toMatchObject({ code: 1 });
    expect(await bash('curl https://example.com\n', cwd, false)).toMatchObject({
      code: 127,
      stderr: expect.stringContaining('curl: command not found'),
    });
  }, 60_000);
});

// An MCP client's configuration (docs/mcp.md: `mcpServers`, VS Code's `servers`): each server runs the package's bin
// with arguments the built CLI parses (`--help` appended exits 0), and sets only variables the CLI reads.
function checkMcpServers(servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>) {
  const known = new Set([
    ...Object.values(SETTINGS).flatMap((s) => ('env' in s && s.env ? [s.env] : [])),
    ...PROXY_VARIABLES,
  ]);
  expect(Object.keys(servers).length).toBeGreaterThan(0);
  for (const { command, args, env = {} } of Object.values(servers)) {
    expect(command).toBe('npx');
    const bin = args.indexOf('svc-a11y');
    expect(args.slice(bin - 2, bin)).toEqual(['-p', '@svc/a11y-sdk']);
    const run = spawnSync(process.execPath, [ensureBuilt(), ...args.slice(bin + 1), '--help'], {
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: svc-a11y mcp');
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
  }
}

describe('json blocks', () => {
  it.each(json.map((b) => [where(b), b] as const))('%s is a file the CLI accepts', (name, block) => {
    const data = JSON.parse(block.text) as Record<string, unknown>;
    if ('mcpServers' in data || 'servers' in data)
      checkMcpServers((data.mcpServers ?? data.servers) as Parameters<typeof checkMcpServers>[0]);
    else if ('suppressions' in data) expect(checkSuppressions(data, name, '2000-01-01').active).not.toHaveLength(0);
    else expect(checkConfig(data, name).file).toBe(name);
  });

  it('the check is live: an unknown key or a suppression without its reason is refused', () => {
    expect(() => checkConfig({ urls: ['https://a.example/'], failon: 'NONE' }, 'x.json')).toThrow(/failon/);
    expect(() =>
      checkSuppressions({ suppressions: [{ ruleId: 'image-alt', expires: '2026-01-01' }] }, 'x', '2000-01-01'),
    ).toThrow(/reason/);
  });
});

describe('yaml blocks', () => {
  it.each(yaml.map((b) => [where(b), b] as const))(
    '%s parses, and is a workflow the workflow tests read',
    (_name, block) => {
      expect(parse(block.text)).toHaveProperty('jobs');
    },
  );
});
