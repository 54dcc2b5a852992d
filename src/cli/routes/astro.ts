// Astro (`src/pages/`): https://docs.astro.build/en/guides/routing/ — `.astro`, Markdown (`.md` and the other
// extensions the docs list), `.mdx` and `.html` files are pages (`.js`/`.ts` files are endpoints, not pages);
// `index` stands for its folder; `[slug]`, `[...path]` (which also matches no segment, as the docs show with
// `/sequences`), parameters inside text (`[lang]-[version]`); a file or folder named `_…` is excluded.
import { bracketSegment, type BracketRules } from './brackets.js';
import type { FileRouter } from './types.js';

const PAGE = /^(.+)\.(astro|md|markdown|mdown|mkdn|mkd|mdwn|mdx|html)$/;
const ASTRO_BRACKETS: BracketRules = { restMin: 0, mixed: true };

/**
 * The route of a file under `src/pages/`.
 * @example astroRouter('blog/[...path].astro') // [{ segments: [static blog, catch-all path (0+)] }]
 */
export const astroRouter: FileRouter = (file) => {
  const parts = file.split('/');
  const stem = PAGE.exec(parts.pop() ?? '')?.[1];
  if (stem === undefined || stem.startsWith('_') || parts.some((p) => p.startsWith('_'))) return [];
  const names = stem === 'index' ? parts : [...parts, stem];
  return [{ segments: names.map((n) => bracketSegment(n, ASTRO_BRACKETS)) }];
};
