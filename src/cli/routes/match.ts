// Which route renders a URL: the URL's path only (query and fragment ignored), the base path removed as whole
// segments, each segment percent-decoded on its own (so `%2F` stays inside its segment), a trailing `/` ignored.
// Of the routes that match, the most specific wins, compared segment by segment from the left: a static segment
// beats a parameter inside text (`post-[id]`), which beats a parameter, which beats an optional one, which beats a
// catch-all (Next.js' and Vue Router's ranking; SvelteKit's and Astro's agree on these cases).
import type { Route, RouteSegment, RouteTable } from './types.js';
import { parseUrl } from '../io/parse-url.js';

// How specific the segment that consumed one URL segment is; lower wins.
const RANK = { static: 0, pattern: 1, dynamic: 2, optional: 3, 'catch-all': 4 } as const;

// Bounds the backtracking of a route with several optional and catch-all segments against a long path.
const MAX_STEPS = 10_000;

interface Fit {
  /** The rank of the segment that consumed each URL segment, left to right. */
  ranks: number[];
  /** Optional and catch-all segments that consumed nothing. */
  skipped: number;
}

/**
 * The decoded path segments of `url` under `basePath`, or undefined when the URL has no http(s) path or lies outside
 * the base path. A segment that is not valid percent-encoding is kept as it is.
 * @example pathSegments('https://a.example/docs/caf%C3%A9/?x=1', ['docs']) // ['café']
 */
export function pathSegments(url: string, basePath: readonly string[] = []): string[] | undefined {
  const parsed = parseUrl(url);
  if (!parsed) return undefined;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const segments = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment);
  if (basePath.some((s, i) => segments[i] !== s)) return undefined;
  return segments.slice(basePath.length);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// Text compared in Unicode's composed form: a file name written on macOS may be decomposed (`é` as `e` + U+0301)
// where the URL, as browsers send it, is composed.
const same = (a: string, b: string): boolean => a === b || a.normalize('NFC') === b.normalize('NFC');

// Whether one route segment takes one URL segment, and how specifically.
function rankOf(segment: RouteSegment, value: string): number | undefined {
  switch (segment.kind) {
    case 'static':
      return same(segment.value, value) ? RANK.static : undefined;
    case 'dynamic':
      if (!segment.pattern) return RANK.dynamic;
      return segment.pattern.test(value) ? RANK.pattern : undefined;
    case 'optional':
      if (segment.value !== undefined) return same(segment.value, value) ? RANK.static : undefined;
      return RANK.optional;
    default:
      return RANK['catch-all'];
  }
}

// < 0 when `a` is the more specific fit.
function compareFits(a: Fit, b: Fit): number {
  for (let i = 0; i < a.ranks.length; i++) {
    const d = (a.ranks[i] ?? 0) - (b.ranks[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.skipped - b.skipped;
}

// The most specific way `segments` consume `path`, trying each optional and catch-all width (bounded).
function bestFit(segments: readonly RouteSegment[], path: readonly string[]): Fit | undefined {
  let steps = 0;
  let best: Fit | undefined;
  const ranks: number[] = [];
  const visit = (si: number, pi: number, skipped: number): void => {
    if (++steps > MAX_STEPS) return;
    if (si === segments.length) {
      if (pi !== path.length) return;
      const fit = { ranks: [...ranks], skipped };
      if (!best || compareFits(fit, best) < 0) best = fit;
      return;
    }
    const segment = segments[si]!;
    if (segment.kind === 'catch-all') {
      // Widest first is no better than narrowest: every width is tried, the ranks decide.
      if (segment.min === 0) visit(si + 1, pi, skipped + 1);
      for (let n = 1; pi + n <= path.length; n++) {
        for (let k = 0; k < n; k++) ranks.push(RANK['catch-all']);
        visit(si + 1, pi + n, skipped);
        ranks.length -= n;
      }
      return;
    }
    if (segment.kind === 'optional') visit(si + 1, pi, skipped + 1);
    const value = path[pi];
    const rank = value === undefined ? undefined : rankOf(segment, value);
    if (rank === undefined) return;
    ranks.push(rank);
    visit(si + 1, pi + 1, skipped);
    ranks.pop();
  };
  visit(0, 0, 0);
  return best;
}

/**
 * The route of `table` that renders `url`: the most specific match (see the module's comment), then the index
 * route over the layout around it, then the first file in code-point order; undefined when none matches.
 * @example matchRoute(table, 'https://shop.example.com/blog/hello?x=1')?.file // 'app/blog/[slug]/page.tsx'
 */
export function matchRoute(table: RouteTable, url: string): Route | undefined {
  const path = pathSegments(url, table.basePath);
  if (!path) return undefined;
  let best: { route: Route; fit: Fit } | undefined;
  for (const route of table.routes) {
    const fit = bestFit(route.segments, path);
    if (!fit) continue;
    if (!best) {
      best = { route, fit };
      continue;
    }
    const order =
      compareFits(fit, best.fit) ||
      Number(best.route.index === true) - Number(route.index === true) ||
      (route.file < best.route.file ? -1 : route.file > best.route.file ? 1 : 0);
    if (order < 0) best = { route, fit };
  }
  return best?.route;
}
