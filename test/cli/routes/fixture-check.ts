// Infers a fixture's route table (as `--sarif-map auto` does) and checks every case of cases.ts against it: the
// matched file (repository-relative), and its line (the default export's for script pages, else 1).
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Framework, inferRoutes, matchRoute, type RouteTable } from '../../../src/cli/routes/index.js';
import { FIXTURES, FIXTURES_DIR, fixtureInRepo, SITE } from './cases.js';

/**
 * The fixture's table, after checking that it was inferred for `framework`.
 * @example const table = tableOf('next');
 */
export function tableOf(framework: Framework): RouteTable {
  const inferred = inferRoutes({ sourceRoot: join(FIXTURES_DIR, framework), basePath: FIXTURES[framework].basePath });
  if (!('table' in inferred)) throw new Error(`${framework}: ${inferred.reason}`);
  expect(inferred.table.framework).toBe(framework);
  return inferred.table;
}

/**
 * Every case of the fixture as `[path, file, line]` found / expected, for one `toEqual` naming each mismatch.
 * @example const { found, expected } = casesOf('next'); expect(found).toEqual(expected);
 */
export function casesOf(framework: Framework): { found: unknown[]; expected: unknown[] } {
  const table = tableOf(framework);
  const { cases, scriptLine } = FIXTURES[framework];
  const found = cases.map(([path]) => {
    const route = matchRoute(table, `${SITE}${path}`);
    return [path, route?.file, route?.line];
  });
  const expected = cases.map(([path, file]) => [
    path,
    file && `${fixtureInRepo(framework)}/${file}`,
    file && (/\.tsx$/.test(file) ? scriptLine : 1),
  ]);
  return { found, expected };
}
