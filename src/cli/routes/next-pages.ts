// Next.js pages router (`pages/`, `src/pages/`): https://nextjs.org/docs/pages/building-your-application/routing —
// each file is a route; `index` stands for its folder; `[id]`, `[...slug]`, `[[...slug]]`; `_app`, `_document` and
// `_error` (the docs' three special files) and everything under `api/` (API routes) are no pages.
import { bracketSegment } from './brackets.js';
import { NEXT_BRACKETS } from './next-app.js';
import type { FileRouter } from './types.js';

const PAGE = /^(.+)\.(tsx|jsx|ts|js|mdx)$/;
const SPECIAL = new Set(['_app', '_document', '_error']);

/**
 * The route of a file under `pages/`: `blog/index.tsx` serves `/blog`, `_app.tsx` and `api/*` serve none.
 * @example nextPagesRouter('blog/[slug].tsx') // [{ segments: [static blog, dynamic slug] }]
 */
export const nextPagesRouter: FileRouter = (file) => {
  const parts = file.split('/');
  const stem = PAGE.exec(parts.pop() ?? '')?.[1];
  if (stem === undefined || stem.endsWith('.d') || parts[0] === 'api' || (parts.length === 0 && stem === 'api'))
    return [];
  if (parts.length === 0 && SPECIAL.has(stem)) return [];
  const names = stem === 'index' ? parts : [...parts, stem];
  return [{ segments: names.map((n) => bracketSegment(n, NEXT_BRACKETS)) }];
};
