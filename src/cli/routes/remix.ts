// Remix v2 and React Router 7 flat routes (`app/routes/`): https://remix.run/docs/en/main/file-conventions/routes
// and https://reactrouter.com/how-to/file-route-conventions — `.` (or `/`) separates segments; `_index` is the
// index route; `$p` a parameter, `($p)` an optional one, `(en)` an optional static segment, `$` alone a splat
// (zero or more segments, as React Router's `*`); a segment starting with `_` is pathless (a file whose last
// segment is pathless is a layout, no page); a trailing `_` is dropped; `[…]` escapes (`[.]` a literal dot,
// `[_]`); a folder is a route through its `route.*` file (or `index.*`, which the routes scanner also takes),
// its other files are not routes.
import type { FileRouter, RouteSegment } from './types.js';

const MODULE = /^(.+)\.(tsx|ts|jsx|js|mdx|md)$/;
const FOLDER_MODULE = /^(route|index)\.(tsx|ts|jsx|js|mdx|md)$/;

/** One character of a route id, and whether `[…]` escaped it. */
interface Char {
  c: string;
  escaped: boolean;
}

interface RawSegment {
  chars: Char[];
  optional: boolean;
}

// Splits a route id as the flat-routes scanner does: `.` and `/` end a segment outside brackets and parentheses.
function rawSegments(id: string): RawSegment[] {
  const out: RawSegment[] = [];
  let current: RawSegment = { chars: [], optional: false };
  let escaping = false;
  let optional = false;
  for (const c of id) {
    if (escaping) {
      if (c === ']') escaping = false;
      else current.chars.push({ c, escaped: true });
    } else if (c === '[') escaping = true;
    else if (c === '(' && !optional) {
      optional = true;
      current.optional = true;
    } else if (c === ')' && optional) optional = false;
    else if ((c === '.' || c === '/') && !optional) {
      out.push(current);
      current = { chars: [], optional: false };
    } else current.chars.push({ c, escaped: false });
  }
  out.push(current);
  return out.filter((s) => s.chars.length > 0);
}

const textOf = (chars: readonly Char[]): string => chars.map((ch) => ch.c).join('');

/**
 * The route of a file under `app/routes/`: `concerts.$city.tsx` serves `/concerts/[city]`, `_auth.login.tsx`
 * serves `/login`, `_auth.tsx` (a pathless layout) none.
 * @example remixRouter('blog.$slug.tsx') // [{ segments: [static blog, dynamic slug] }]
 */
export const remixRouter: FileRouter = (file) => {
  const parts = file.split('/');
  let id: string | undefined;
  if (parts.length === 1) id = MODULE.exec(parts[0] ?? '')?.[1];
  else if (parts.length === 2 && FOLDER_MODULE.test(parts[1] ?? '')) id = parts[0];
  if (id === undefined) return [];
  const raw = rawSegments(id);
  const segments: RouteSegment[] = [];
  let index = false;
  for (const [i, segment] of raw.entries()) {
    let chars = segment.chars;
    const last = i === raw.length - 1;
    if (chars[0]?.c === '_' && !chars[0].escaped) {
      if (last && textOf(chars) === '_index' && !chars.some((ch) => ch.escaped)) index = true;
      // A pathless segment adds nothing; ending on one makes the file a layout with no page of its own.
      else if (last) return [];
      continue;
    }
    const tail = chars[chars.length - 1];
    if (tail?.c === '_' && !tail.escaped) chars = chars.slice(0, -1);
    const text = textOf(chars);
    const param = chars[0]?.c === '$' && !chars[0].escaped;
    if (param && text === '$') segments.push({ kind: 'catch-all', name: '*', min: 0 });
    else if (param && segment.optional) segments.push({ kind: 'optional', name: text.slice(1) });
    else if (param) segments.push({ kind: 'dynamic', name: text.slice(1) });
    else if (segment.optional) segments.push({ kind: 'optional', name: text, value: text });
    else segments.push({ kind: 'static', value: text });
  }
  return [{ segments, index }];
};
