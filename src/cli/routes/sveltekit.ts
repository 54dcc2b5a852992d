// SvelteKit (`src/routes/`): https://svelte.dev/docs/kit/routing and /advanced-routing — `+page.svelte` (or a
// `+page@….svelte` that resets its layout) is the page; `(group)` adds no segment; `[param]` and `[param=matcher]`
// one segment (the matcher is not run: the parameter matches any segment); `[[optional]]` zero or one;
// `[...rest]` zero or more (the docs: `a/[...rest]/z` matches `/a/z`); parameters inside text (`x-[y]`); the
// escapes `[x+2f]` and `[u+00e9]` are the characters they encode. `+server.ts`, `+layout.svelte`, `+page.ts` are
// no pages.
import { bracketSegment, type BracketRules } from './brackets.js';
import type { FileRouter, RouteSegment } from './types.js';

const PAGE = /^\+page(@[^.]*)?\.svelte$/;
const GROUP = /^\(.*\)$/;

const SVELTE_BRACKETS: BracketRules = {
  restMin: 0,
  mixed: true,
  escape: (inner) => {
    const m = /^(?:x\+([0-9a-f]{2})|u\+([0-9a-f]{4,6}))$/i.exec(inner);
    const hex = m?.[1] ?? m?.[2];
    return hex === undefined ? undefined : String.fromCodePoint(Number.parseInt(hex, 16));
  },
};

/**
 * The route of a file under `src/routes/`.
 * @example svelteKitRouter('(app)/blog/[slug]/+page.svelte') // [{ segments: [static blog, dynamic slug] }]
 */
export const svelteKitRouter: FileRouter = (file) => {
  const folders = file.split('/');
  if (!PAGE.test(folders.pop() ?? '')) return [];
  const segments: RouteSegment[] = folders
    .filter((folder) => !GROUP.test(folder))
    .map((folder) => bracketSegment(folder, SVELTE_BRACKETS));
  return [{ segments }];
};
