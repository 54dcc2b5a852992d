// The XML parser that reads sitemaps (fast-xml-parser, a devDependency) is bundled into the CLI alone: importing
// the SDK (`@svc/a11y-sdk` and its other entries, ESM or CJS) never loads it, and installing the package never
// installs it. Checked on the built files (npm test builds them first).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, string> | undefined
>;
// Strings only fast-xml-parser's code holds (option names of its entity limits, its validator's error code).
const MARKERS = ['maxExpandedLength', 'InvalidXml'];

// Every file a built entry loads, following relative static and dynamic imports and require() calls.
function graphOf(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
      const next = resolve(dirname(file), m[1]!);
      if (existsSync(next)) visit(next);
    }
  };
  visit(join(dist, entry));
  return [...seen];
}

describe('CLI-only libraries stay out of the SDK', () => {
  it('the CLI bundle holds the XML parser (so the check below can see it)', () => {
    const files = graphOf('cli.js');
    expect(files.some((f) => MARKERS.every((m) => readFileSync(f, 'utf8').includes(m)))).toBe(true);
  });

  it.each([
    'index.js',
    'index.cjs',
    'webhooks.js',
    'webhooks.cjs',
    'testing.js',
    'testing.cjs',
    'redis.js',
    'redis.cjs',
  ])('%s and every file it loads do not hold it', (entry) => {
    const files = graphOf(entry);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      for (const marker of MARKERS)
        expect(readFileSync(file, 'utf8').includes(marker), `${file} holds ${marker}`).toBe(false);
  });

  it('is no runtime dependency of the package (bundled, a devDependency only)', () => {
    for (const key of ['dependencies', 'peerDependencies', 'optionalDependencies'])
      expect(Object.keys(pkg[key] ?? {})).not.toContain('fast-xml-parser');
    expect(pkg.devDependencies?.['fast-xml-parser']).toMatch(/^\d+\.\d+\.\d+$/);
    // Bundled code ships with its licence.
    const notices = readFileSync(join(root, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    expect(notices).toContain(readFileSync(join(root, 'node_modules/fast-xml-parser/LICENSE'), 'utf8').trim());
    expect(notices).toContain(`**fast-xml-parser** ${pkg.devDependencies?.['fast-xml-parser']}`);
  });
});
