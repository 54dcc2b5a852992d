// The run's route table (src/cli/gate/route-table.ts): the default in a recognised project, `none` turns it off, the
// last of `auto` and `none` wins, and an explicit `auto` (or `--source-root`) with no project is a usage error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeTableOf } from '../../../src/cli/gate/route-table.js';
import { UsageError } from '../../../src/cli/exit-codes.js';
import type { SourceMapItem, Setting } from '../../../src/cli/settings/settings.js';
import { FIXTURES_DIR } from './cases.js';

const empty = mkdtempSync(join(tmpdir(), 'svc-a11y-no-project-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const byDefault: Setting<string | undefined> = { value: undefined, source: { kind: 'default' } };
const flag = (value: string, name: string): Setting<string | undefined> => ({
  value,
  source: { kind: 'flag', flag: name },
});
const tableIn = (cwd: string, items: SourceMapItem[], more: { sourceRoot?: string; basePath?: string } = {}) => {
  const notes: string[] = [];
  const table = routeTableOf({
    items,
    sourceRoot: more.sourceRoot ? flag(more.sourceRoot, '--source-root') : byDefault,
    basePath: more.basePath ? flag(more.basePath, '--base-path') : byDefault,
    cwd,
    note: (line) => notes.push(line),
  });
  return { table, notes };
};

describe('routeTableOf', () => {
  it('infers by default in a recognised project and says so in one line', () => {
    const { table, notes } = tableIn(join(FIXTURES_DIR, 'astro'), []);
    expect(table?.framework).toBe('astro');
    expect(notes).toEqual([
      expect.stringMatching(
        /^sarif map: \d+ routes inferred from test\/fixtures\/routes\/astro\/src\/pages \(Astro\)$/,
      ),
    ]);
  });

  it('none turns it off; of auto and none the last given wins; manual entries do not turn it off', () => {
    const astro = join(FIXTURES_DIR, 'astro');
    expect(tableIn(astro, ['none']).table).toBeUndefined();
    expect(tableIn(astro, ['none', 'auto']).table).toBeDefined();
    expect(tableIn(astro, ['auto', ['/a', 'a.tsx'], 'none']).table).toBeUndefined();
    expect(tableIn(astro, [['/a', 'a.tsx']]).table).toBeDefined();
  });

  it('no project: nothing by default; an explicit auto or --source-root is a usage error naming the way out', () => {
    expect(tableIn(empty, [])).toEqual({ table: undefined, notes: [] });
    expect(tableIn(empty, ['none']).table).toBeUndefined();
    const way = /--source-map auto: no routes can be inferred in .*--source-map none/;
    expect(() => tableIn(empty, ['auto'])).toThrow(way);
    expect(() => tableIn(process.cwd(), [], { sourceRoot: empty })).toThrow(way);
    expect(() => tableIn(empty, ['auto'])).toThrow(UsageError);
  });

  it('a base path that is no path is a usage error', () => {
    expect(() => tableIn(join(FIXTURES_DIR, 'astro'), [], { basePath: 'docs' })).toThrow(UsageError);
  });
});
