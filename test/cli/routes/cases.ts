// The fixture projects of test/fixtures/routes/ and, for each, the URL paths a run checks with the file (relative
// to the fixture) that must render each one, or undefined where the page keeps its URL-derived location. The unit
// tests match these against the inferred table; the CLI tests check every SARIF location against them.
import { fileURLToPath } from 'node:url';
import type { Framework } from '../../../src/cli/routes/index.js';

/** The fixtures' folder. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/routes/', import.meta.url));

/** The repository-relative folder of a fixture (the CLI reports files relative to the repository root). */
export const fixtureInRepo = (framework: Framework): string => `test/fixtures/routes/${framework}`;

/** The host every case's URL is on (the simulator's verified site). */
export const SITE = 'https://shop.example.com';

/** One page: its URL path (query and fragment allowed) and the route file expected, relative to the fixture. */
type RouteCase = [path: string, file: string | undefined];

/** A fixture: the CLI arguments it needs beyond the URLs, the default export line of its script pages, its cases. */
export interface Fixture {
  args: string[];
  /** `--base-path` of the unit tests (the CLI gets it through `args`). */
  basePath?: string;
  /** The line script pages (`.tsx`) point at: their default export, line 3 in every fixture file. */
  scriptLine: number;
  cases: RouteCase[];
}

/** Every fixture and its cases. */
export const FIXTURES: Record<Framework, Fixture> = {
  // basePath '/shop' comes from next.config.mjs.
  next: {
    args: [],
    scriptLine: 3,
    cases: [
      ['/shop', 'app/page.tsx'],
      ['/shop/', 'app/page.tsx'],
      ['/shop/about', 'app/(marketing)/about/page.tsx'],
      ['/shop/blog/new', 'app/blog/new/page.tsx'],
      ['/shop/blog/hello-world?ref=mail#top', 'app/blog/[slug]/page.tsx'],
      ['/shop/blog', undefined],
      ['/shop/blog/hello-world/extra', undefined],
      ['/shop/docs', 'app/docs/page.tsx'],
      ['/shop/docs/a/b', 'app/docs/[...slug]/page.tsx'],
      ['/shop/catalog', 'app/catalog/[[...filters]]/page.tsx'],
      ['/shop/catalog/red/xl', 'app/catalog/[[...filters]]/page.tsx'],
      ['/shop/login', undefined],
      ['/shop/_components', undefined],
      ['/shop/_internal', 'app/%5Finternal/page.tsx'],
      ['/shop/photo', undefined],
      ['/shop/caf%C3%A9', 'app/café/page.tsx'],
      ['/shop/api/health', undefined],
      ['/shop/legacy', 'pages/legacy.tsx'],
      ['/shop/posts', 'pages/posts/index.tsx'],
      ['/shop/posts/42', 'pages/posts/[id].tsx'],
      ['/shop/api/users', undefined],
      ['/shop/_app', undefined],
      ['/about', undefined],
      ['/shopping', undefined],
    ],
  },
  astro: {
    args: [],
    scriptLine: 1,
    cases: [
      ['/', 'src/pages/index.astro'],
      ['/about/', 'src/pages/about.md'],
      ['/blog/featured', 'src/pages/blog/featured.mdx'],
      ['/blog/first-post', 'src/pages/blog/[slug].astro'],
      ['/blog', undefined],
      ['/docs', 'src/pages/docs/[...path].astro'],
      ['/docs/a/b', 'src/pages/docs/[...path].astro'],
      ['/en-v1/info', 'src/pages/[lang]-[version]/info.astro'],
      ['/en/info', undefined],
      ['/_draft', undefined],
      ['/_partials/footer', undefined],
      ['/rss.xml', undefined],
      ['/legal', 'src/pages/legal.html'],
      ['/%C3%BCber', 'src/pages/über.astro'],
    ],
  },
  sveltekit: {
    args: [],
    scriptLine: 1,
    cases: [
      ['/', 'src/routes/+page.svelte'],
      ['/pricing', 'src/routes/(marketing)/pricing/+page.svelte'],
      ['/blog/hello', 'src/routes/blog/[slug]/+page.svelte'],
      ['/blog', undefined],
      ['/about', 'src/routes/[[lang]]/about/+page.svelte'],
      ['/fr/about', 'src/routes/[[lang]]/about/+page.svelte'],
      ['/fr/de/about', undefined],
      ['/files', 'src/routes/files/[...path]/+page.svelte'],
      ['/files/a/b/c', 'src/routes/files/[...path]/+page.svelte'],
      ['/items/7', 'src/routes/items/[id=integer]/+page.svelte'],
      ['/items/new', 'src/routes/items/new/+page@.svelte'],
      ['/a%3Fb', 'src/routes/a[x+3f]b/+page.svelte'],
      ['/api', undefined],
    ],
  },
  nuxt: {
    args: ['--base-path', '/app'],
    basePath: '/app',
    scriptLine: 1,
    cases: [
      ['/app', 'pages/index.vue'],
      ['/app/users', 'pages/users/index.vue'],
      ['/app/users/42', 'pages/users/[id].vue'],
      ['/app/users/admin', 'pages/users/admin.vue'],
      ['/app/posts', 'pages/posts/[...slug].vue'],
      ['/app/posts/2024/hello', 'pages/posts/[...slug].vue'],
      ['/app/contact', 'pages/[[lang]]/contact.vue'],
      ['/app/de/contact', 'pages/[[lang]]/contact.vue'],
      ['/app/terms', 'pages/(legal)/terms.vue'],
      ['/app/-draft', undefined],
      ['/app/settings', 'pages/settings.vue'],
      ['/app/nothing/here', undefined],
      ['/users', undefined],
    ],
  },
  remix: {
    args: [],
    scriptLine: 3,
    cases: [
      ['/', 'app/routes/_index.tsx'],
      ['/about', 'app/routes/about.tsx'],
      ['/concerts', 'app/routes/concerts._index.tsx'],
      ['/concerts/berlin', 'app/routes/concerts.$city.tsx'],
      ['/concerts/trending', 'app/routes/concerts.trending.tsx'],
      ['/concerts/mine', 'app/routes/concerts_.mine.tsx'],
      ['/login', 'app/routes/_auth.login.tsx'],
      ['/files', 'app/routes/files.$.tsx'],
      ['/files/a/b', 'app/routes/files.$.tsx'],
      ['/products', 'app/routes/($lang).products.tsx'],
      ['/de/products', 'app/routes/($lang).products.tsx'],
      ['/docs.v2', 'app/routes/docs[.]v2.tsx'],
      ['/docs/v2', undefined],
      ['/dashboard', 'app/routes/dashboard/route.tsx'],
      ['/dashboard/chart', undefined],
      ['/sitemap.xml', undefined],
      ['/nope', undefined],
    ],
  },
  static: {
    args: [],
    scriptLine: 1,
    cases: [
      ['/', 'public/index.html'],
      ['/index.html', 'public/index.html'],
      ['/docs', 'public/docs/index.html'],
      ['/docs/', 'public/docs/index.html'],
      ['/docs/index.html', 'public/docs/index.html'],
      ['/docs/guide.html', 'public/docs/guide.html'],
      ['/docs/guide', undefined],
      ['/hello%20world.html', 'public/hello world.html'],
      ['/.hidden/x.html', undefined],
      ['/top.html', undefined],
    ],
  },
};
