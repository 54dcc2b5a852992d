// The route table: what a framework's file-system routing says about which file renders which URL path. Plain data
// (no file handle, no function), so the report layer can take it as it is and the tests can write one by hand.

/** The frameworks whose file-system routing `--source-map auto` reads. */
export type Framework = 'next' | 'astro' | 'sveltekit' | 'nuxt' | 'remix' | 'static';

/**
 * One segment of a route's path pattern. `static` matches one equal URL segment (after percent-decoding);
 * `dynamic` one segment (any, or those `pattern` matches: `[lang]-[version]`, `post-[id]`); `optional` zero or one
 * segment (SvelteKit `[[lang]]`, Nuxt `[[id]]`, Remix `($lang)`; `value` set for an optional static segment such as
 * Remix `(en)`); `catch-all` `min` or more segments (`[...slug]`: 1 in Next.js, 0 where the framework says so).
 */
export type RouteSegment =
  | { kind: 'static'; value: string }
  | { kind: 'dynamic'; name: string; pattern?: RegExp | undefined }
  | { kind: 'optional'; name: string; value?: string | undefined }
  | { kind: 'catch-all'; name: string; min: 0 | 1 };

/** One page route: the file that renders it and the path pattern it serves. */
export interface Route {
  /** The file, relative to the repository root, `/`-separated: `app/blog/[slug]/page.tsx`. */
  file: string;
  /** The line to point at: the default export's where it is cheap to find, else 1. */
  line: number;
  /** The path pattern, as the framework writes it, for messages: `/blog/[slug]`. */
  pattern: string;
  segments: RouteSegment[];
  /**
   * An index route (`index.vue`, Remix `_index`): of two routes that match a URL equally, the index wins over the
   * layout that wraps it (Nuxt `parent.vue`, Remix `concerts.tsx`), as the index is the leaf that renders the page.
   * @default false
   */
  index?: boolean;
}

/** The routes of one project, as `--source-map auto` inferred them. */
export interface RouteTable {
  framework: Framework;
  /** The folders read, relative to the repository root (`app`, `src/pages`), for messages. */
  folders: string[];
  /** URL path segments removed before matching (`--base-path`, Next.js `basePath`); a URL outside them matches none. */
  basePath: string[];
  routes: Route[];
  /** True when the walk stopped at its cap on files: some routes may be missing. */
  truncated: boolean;
}

/** Where a page's findings are reported: a repository-relative file and a line of it. */
export interface SourceLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** The route pattern that matched, when a route table (not a manual entry) gave the file. */
  route?: string | undefined;
}

/** What one file of a routes folder stands for: a path pattern (a file may serve several, e.g. `x/index.html`). */
interface RouteSpec {
  segments: RouteSegment[];
  /** See {@link Route.index}. */
  index?: boolean;
}

/**
 * A framework's reading of one file of its routes folder (its path relative to that folder, `/`-separated): the
 * path patterns it serves, none when it is no page.
 */
export type FileRouter = (file: string) => RouteSpec[];
