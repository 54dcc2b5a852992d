// Where the built package lives: benchmarks import dist/, exactly what users get.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = {
  index: new URL('../../dist/index.js', import.meta.url),
  webhooks: new URL('../../dist/webhooks.js', import.meta.url),
  testing: new URL('../../dist/testing.js', import.meta.url),
};

/** Throws a clear message when dist/ has not been built (`npm run bench` builds it first). */
export function assertBuilt() {
  for (const url of Object.values(DIST)) {
    if (!existsSync(url)) throw new Error(`${fileURLToPath(url)} is missing: run \`npm run build\` first.`);
  }
}

export const importIndex = () => import(DIST.index.href);
export const importWebhooks = () => import(DIST.webhooks.href);
export const importTesting = () => import(DIST.testing.href);
