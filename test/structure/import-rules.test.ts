// The rules each folder's README states, checked over every import of src/ (static, dynamic and `import type`,
// read with TypeScript's own pre-processor): the CLI and the action use the package's public entries only,
// nothing imports upward into the CLI, src/internal is the bottom layer and stays inside the package, and there
// is no import cycle. A failure names the importing file, the imported one and the rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
const PUBLIC_ENTRIES = [
  'src/index.ts',
  'src/webhooks/index.ts',
  'src/testing/index.ts',
  'src/redis/index.ts',
  'src/redact/index.ts',
  'src/vocabulary/index.ts',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Repository-relative path of a relative import, `.js` written for `.ts` (NodeNext style), or undefined for packages. */
function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
  return relative(ROOT, path);
}

/** Every relative import of every file under src/: [importer, imported]. */
function imports(): Array<[string, string]> {
  return filesUnder(SRC).flatMap((file) => {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return info.importedFiles.flatMap(({ fileName }) => {
      const to = target(file, fileName);
      return to === undefined ? [] : [[relative(ROOT, file), to] as [string, string]];
    });
  });
}

const edges = imports();
const inside = (file: string, folder: string) => file.startsWith(`${folder}/`);

/** The edges that break a rule, as "importer → imported" lines. */
const broken = (rule: (from: string, to: string) => boolean) =>
  edges.filter(([from, to]) => !rule(from, to)).map(([from, to]) => `${from} → ${to}`);

describe('import rules (see the README of each folder)', () => {
  it('reads the imports of every source file', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges.some(([from]) => from === 'src/cli/main.ts')).toBe(true);
  });

  it("src/cli imports only its own files and the package's public entries (and the MCP tools' schemas, the description's)", () => {
    expect(
      broken(
        (from, to) =>
          !inside(from, 'src/cli') ||
          inside(to, 'src/cli') ||
          PUBLIC_ENTRIES.includes(to) ||
          // The MCP tools' schemas are derived from the description's own (src/cli/mcp/README.md).
          (from === 'src/cli/mcp/schemas.ts' && to === 'generated/zod.gen.ts'),
      ),
    ).toEqual([]);
  });

  it("src/action imports only its own files, the CLI's entry for programs (src/cli/index.ts) and the package's public entries", () => {
    expect(
      broken(
        (from, to) =>
          !inside(from, 'src/action') ||
          inside(to, 'src/action') ||
          to === 'src/cli/index.ts' ||
          PUBLIC_ENTRIES.includes(to),
      ),
    ).toEqual([]);
  });

  // The CLI's wings, lowest first (src/cli/README.md): a file imports only its own layer and those below.
  const CLI_LAYERS: Array<(file: string) => boolean> = [
    (f) => ['src/cli/args.ts', 'src/cli/exit-codes.ts', 'src/cli/suggest.ts'].includes(f),
    (f) => inside(f, 'src/cli/io'),
    (f) => inside(f, 'src/cli/routes'),
    (f) => inside(f, 'src/cli/pages'), // page URLs and the source files that render them, for every writer
    (f) => inside(f, 'src/cli/verdict'), // the verdict's rules: a check made safe and judged once
    (f) => inside(f, 'src/cli/report'), // the writers
    (f) => inside(f, 'src/cli/settings'),
    (f) => inside(f, 'src/cli/gate'), // the `ci` and `merge` commands' own folder, under the hall but for context.ts
    (f) => inside(f, 'src/cli/mcp'), // the MCP server: a helper of its command, under the hall but for context.ts
    (f) => inside(f, 'src/cli'), // the hall and the commands
  ];
  const cliLayer = (file: string) => CLI_LAYERS.findIndex((isIn) => isIn(file));
  // The one upward import the layers allow: the gate's commands and the MCP server build their client, and take
  // their context, as every command does.
  const allowedUp = (from: string, to: string) =>
    (inside(from, 'src/cli/mcp') || inside(from, 'src/cli/gate')) && to === 'src/cli/context.ts';

  it('the CLI is layered: base, io/, routes/, pages/, verdict/, report/, settings/, gate/, mcp/, then the hall and the commands; no import runs back up', () => {
    const cli = edges.filter(([from, to]) => inside(from, 'src/cli') && inside(to, 'src/cli'));
    expect(cli.length).toBeGreaterThan(100);
    for (const wing of ['io', 'routes', 'pages', 'verdict', 'report', 'settings', 'gate', 'mcp'])
      expect(
        cli.some(([from]) => inside(from, `src/cli/${wing}`)),
        wing,
      ).toBe(true);
    expect(
      cli
        .filter(([from, to]) => cliLayer(to) > cliLayer(from) && !allowedUp(from, to))
        .map(([from, to]) => `${from} → ${to}`),
    ).toEqual([]);
  });

  it('context.ts, which the gate and the MCP server import, imports neither of them (no arrow back between wings)', () => {
    expect(
      broken((from, to) => from !== 'src/cli/context.ts' || !(inside(to, 'src/cli/gate') || inside(to, 'src/cli/mcp'))),
    ).toEqual([]);
  });

  it('src/cli/mcp imports from the hall only context.ts, and only the mcp command imports it', () => {
    expect(edges.some(([from, to]) => inside(from, 'src/cli/mcp') && to === 'src/cli/context.ts')).toBe(true);
    expect(
      broken(
        (from, to) =>
          !inside(from, 'src/cli/mcp') ||
          !inside(to, 'src/cli') ||
          cliLayer(to) <= cliLayer('src/cli/mcp/server.ts') ||
          to === 'src/cli/context.ts',
      ),
    ).toEqual([]);
    expect(
      broken(
        (from, to) => !inside(to, 'src/cli/mcp') || inside(from, 'src/cli/mcp') || from === 'src/cli/commands/mcp.ts',
      ),
    ).toEqual([]);
  });

  // The SDK's floors, lowest first (src/README.md): a file imports only its own floor and those below, so no
  // arrow runs back up anywhere in the house. Folders on one floor do not import each other.
  const SDK_FLOORS: Array<{ floor: number; name: string; holds: (file: string) => boolean }> = [
    { floor: 0, name: 'internal/', holds: (f) => inside(f, 'src/internal') },
    { floor: 1, name: 'core/', holds: (f) => inside(f, 'src/core') },
    { floor: 2, name: 'validation/', holds: (f) => inside(f, 'src/validation') },
    { floor: 2, name: 'rate-limit/', holds: (f) => inside(f, 'src/rate-limit') },
    { floor: 2, name: 'wait/', holds: (f) => inside(f, 'src/wait') },
    { floor: 2, name: 'webhooks/', holds: (f) => inside(f, 'src/webhooks') },
    { floor: 2, name: 'redact/', holds: (f) => inside(f, 'src/redact') },
    { floor: 2, name: 'vocabulary/', holds: (f) => inside(f, 'src/vocabulary') },
    { floor: 3, name: 'observe/', holds: (f) => inside(f, 'src/observe') },
    // The ./redis stores and the ./testing simulator use no client: they stand beside the observer.
    { floor: 3, name: 'redis/', holds: (f) => inside(f, 'src/redis') },
    { floor: 3, name: 'testing/', holds: (f) => inside(f, 'src/testing') },
    { floor: 4, name: 'resources/', holds: (f) => inside(f, 'src/resources') },
    { floor: 5, name: 'the hall', holds: (f) => ['src/client.ts', 'src/index.ts'].includes(f) },
    { floor: 6, name: 'cli/', holds: (f) => inside(f, 'src/cli') },
    { floor: 7, name: 'action/', holds: (f) => inside(f, 'src/action') },
  ];
  const sdkFloor = (file: string) => SDK_FLOORS.find(({ holds }) => holds(file));

  it('every file of src/ stands on one floor of the SDK', () => {
    const unplaced = filesUnder(SRC)
      .map((file) => relative(ROOT, file))
      .filter((file) => sdkFloor(file) === undefined);
    expect(unplaced).toEqual([]);
    // Nothing stands flat in src/ but the hall.
    expect(readdirSync(SRC).filter((name) => name.endsWith('.ts'))).toEqual(['client.ts', 'index.ts']);
  });

  it('the SDK is built in floors: internal, core, then validation/rate-limit/wait, observe, resources, the hall; no import runs back up', () => {
    const up = edges
      .filter(([, to]) => inside(to, 'src'))
      .filter(([from, to]) => {
        const a = sdkFloor(from)!;
        const b = sdkFloor(to)!;
        return a !== b && b.floor >= a.floor;
      })
      .map(([from, to]) => `${from} (${sdkFloor(from)!.name}) → ${to} (${sdkFloor(to)!.name})`);
    expect(up).toEqual([]);
  });

  it('nothing but the action imports upward into src/cli', () => {
    expect(
      broken((from, to) => !inside(to, 'src/cli') || inside(from, 'src/cli') || inside(from, 'src/action')),
    ).toEqual([]);
  });

  it('src/internal is the bottom layer: it imports only itself and generated/', () => {
    expect(
      broken((from, to) => !inside(from, 'src/internal') || inside(to, 'src/internal') || inside(to, 'generated')),
    ).toEqual([]);
  });

  it('src/observe imports at run time only itself, src/internal and src/wait/progress.ts; the rest of the SDK as types', () => {
    const observe = filesUnder(join(SRC, 'observe')).map((file) => relative(ROOT, file));
    expect(observe.length).toBeGreaterThan(1);
    // `import type { … } from` and `import { type A, type B } from` erase; any other import runs with the chunk.
    const valueImports = observe.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import\s+(?!type\b)([^;]*?)\s+from\s+'([^']+)'/gms)]
        .filter(([, names]) => !/^\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)*\s*\}$/.test(names!))
        .map(([, , specifier]) => [file, target(join(ROOT, file), specifier!)] as const),
    );
    expect(valueImports.length).toBeGreaterThan(0);
    const wrong = valueImports
      .filter(([, to]) => to !== undefined && !inside(to, 'src/observe') && !inside(to, 'src/internal'))
      .filter(([, to]) => to !== 'src/wait/progress.ts')
      .map(([from, to]) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it('every folder of src/ has a README saying what it may import and what may import it (src/ itself: the floors)', () => {
    const folders = (dir: string): string[] =>
      readdirSync(dir)
        .map((name) => join(dir, name))
        .filter((path) => statSync(path).isDirectory())
        .flatMap((path) => [path, ...folders(path)]);
    const without = folders(SRC)
      .map((dir) => relative(ROOT, dir))
      .filter((dir) => {
        let text = '';
        try {
          text = readFileSync(join(ROOT, dir, 'README.md'), 'utf8');
        } catch {
          return true;
        }
        return !text.includes('**May import:**') || !text.includes('**May be imported by:**');
      });
    expect(without).toEqual([]);
    expect(readFileSync(join(SRC, 'README.md'), 'utf8')).toContain('| floor | folder | what |');
  });

  it('no import cycle', () => {
    const next = new Map<string, string[]>();
    for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const to of next.get(file) ?? []) walk(to, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of next.keys()) walk(file, []);
    expect(cycles).toEqual([]);
  });
});
