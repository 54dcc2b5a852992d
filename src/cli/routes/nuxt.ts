// Nuxt (`pages/`, or `app/pages/` where Nuxt 4's `app/` source folder holds it): https://nuxt.com/docs/guide/directory-structure/pages
// — a page is a `.vue` file (or `.js`, `.jsx`, `.mjs`, `.ts`, `.tsx`, the other extensions the docs list);
// `index` stands for its folder; `[id]`, `[[id]]` optional, `[...slug]` (Vue Router's `:slug(.*)*`: zero or
// more), parameters inside text (`user-[id]`), `(group)` folders add no segment; a name starting with `-` (the
// default `ignorePrefix`) is ignored. `parent.vue` beside `parent/` is the parent's view: `parent/index.vue` wins
// `/parent` over it.
import { bracketSegment, type BracketRules } from './brackets.js';
import type { FileRouter } from './types.js';

const PAGE = /^(.+)\.(vue|jsx|tsx|js|mjs|ts)$/;
const GROUP = /^\(.*\)$/;
const NUXT_BRACKETS: BracketRules = { restMin: 0, mixed: true };

/**
 * The route of a file under `pages/`.
 * @example nuxtRouter('users/[id].vue') // [{ segments: [static users, dynamic id] }]
 */
export const nuxtRouter: FileRouter = (file) => {
  const parts = file.split('/');
  const stem = PAGE.exec(parts.pop() ?? '')?.[1];
  if (stem === undefined || stem.endsWith('.d') || stem.startsWith('-') || parts.some((p) => p.startsWith('-')))
    return [];
  const folders = parts.filter((p) => !GROUP.test(p));
  const index = stem === 'index';
  const names = index ? folders : [...folders, stem];
  return [{ segments: names.map((n) => bracketSegment(n, NUXT_BRACKETS)), index }];
};
