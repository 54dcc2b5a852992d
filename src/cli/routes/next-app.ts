// Next.js app router (`app/`, `src/app/`): https://nextjs.org/docs/app/building-your-application/routing — a folder
// holding `page.*` is a route; `(group)` adds no segment; `_private` and `@slot` folders hold no route; intercepting
// folders (`(.)x`, `(..)x`, `(...)x`) only intercept client navigations, so a URL loaded directly is rendered by
// the route they shadow and they are skipped; `%5Fname` serves `_name` (the docs' way to start a URL with `_`).
import { bracketSegment, type BracketRules } from './brackets.js';
import type { FileRouter, RouteSegment } from './types.js';

const PAGE = /^page\.(tsx|jsx|ts|js|mdx)$/;
const INTERCEPTING = /^\((\.|\.\.|\.\.\.)\)/;
const GROUP = /^\(.*\)$/;

/** Next.js reads a folder name's percent-encoding (`%5F`) as the character it encodes. */
export const NEXT_BRACKETS: BracketRules = {
  restMin: 1,
  mixed: false,
  literal: (text) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  },
};

/**
 * The route of a file under `app/`: `(shop)/cart/page.tsx` serves `/cart`; `route.ts`, `layout.tsx` and files
 * under `_private` or `@slot` serve none.
 * @example nextAppRouter('blog/[slug]/page.tsx') // [{ segments: [static blog, dynamic slug] }]
 */
export const nextAppRouter: FileRouter = (file) => {
  const folders = file.split('/');
  const name = folders.pop() ?? '';
  if (!PAGE.test(name)) return [];
  const segments: RouteSegment[] = [];
  for (const folder of folders) {
    if (folder.startsWith('_') || folder.startsWith('@') || INTERCEPTING.test(folder)) return [];
    if (GROUP.test(folder)) continue;
    segments.push(bracketSegment(folder, NEXT_BRACKETS));
  }
  return [{ segments }];
};
