// The bracket convention of file-system routers (Next.js, Astro, SvelteKit, Nuxt): one file or folder name becomes
// one route segment: `[id]` a parameter, `[...slug]` a catch-all, `[[...slug]]` an optional catch-all, `[[id]]` an
// optional parameter, `post-[id]` (where the router allows it) a parameter inside static text.
import type { RouteSegment } from './types.js';

/** How one router reads brackets. */
export interface BracketRules {
  /** Fewest segments `[...rest]` matches: 1 in Next.js, 0 in Astro, SvelteKit and Nuxt (their docs say so). */
  restMin: 0 | 1;
  /**
   * Whether a parameter may sit inside static text (`[lang]-[version]`, `post-[id]`): Astro, SvelteKit and Nuxt
   * allow it; in Next.js such a name is static text.
   */
  mixed: boolean;
  /**
   * Turns a bracket's content that is an escape into its literal text, or undefined when it is a parameter
   * (SvelteKit's `[x+2f]` and `[u+00e9]`).
   * @default () => undefined
   */
  escape?: (inner: string) => string | undefined;
  /**
   * Turns static text into the URL segment it serves (Next.js: `%5Fname` serves `_name`).
   * @default the text as it is
   */
  literal?: (text: string) => string;
}

const TOKEN = /\[\[\.\.\.([^\]]+)\]\]|\[\[([^\]]+)\]\]|\[\.\.\.([^\]]+)\]|\[([^\]]+)\]/g;

// A parameter's name without SvelteKit's matcher (`[id=integer]` is `id`).
const nameOf = (inner: string): string => inner.replace(/=.*$/, '');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The route segment a file or folder name stands for under `rules`.
 * @example bracketSegment('[...slug]', { restMin: 1, mixed: false }) // { kind: 'catch-all', name: 'slug', min: 1 }
 */
export function bracketSegment(name: string, rules: BracketRules): RouteSegment {
  const literal = rules.literal ?? ((text: string) => text);
  type Part = { text: string } | { param: RouteSegment };
  const parts: Part[] = [];
  let last = 0;
  for (const m of name.matchAll(TOKEN)) {
    if (m.index > last) parts.push({ text: name.slice(last, m.index) });
    last = m.index + m[0].length;
    const [, restOptional, optional, rest, plain] = m;
    const escaped = plain !== undefined ? rules.escape?.(plain) : undefined;
    if (escaped !== undefined) parts.push({ text: escaped });
    else if (restOptional !== undefined)
      parts.push({ param: { kind: 'catch-all', name: nameOf(restOptional), min: 0 } });
    else if (optional !== undefined) parts.push({ param: { kind: 'optional', name: nameOf(optional) } });
    else if (rest !== undefined) parts.push({ param: { kind: 'catch-all', name: nameOf(rest), min: rules.restMin } });
    else parts.push({ param: { kind: 'dynamic', name: nameOf(plain ?? '') } });
  }
  if (last < name.length) parts.push({ text: name.slice(last) });
  const params = parts.filter((p): p is { param: RouteSegment } => 'param' in p);
  if (params.length === 0)
    return { kind: 'static', value: literal(parts.map((p) => ('text' in p ? p.text : '')).join('')) };
  if (parts.length === 1 && params.length === 1) return params[0]!.param;
  // Text and parameters in one segment: one segment whose parameters each match one or more characters (only
  // plain parameters can share a segment; a router that allows none reads the whole name as text).
  if (!rules.mixed || params.some((p) => p.param.kind !== 'dynamic')) return { kind: 'static', value: literal(name) };
  const source = parts.map((p) => ('text' in p ? escapeRegExp(literal(p.text)) : '(.+?)')).join('');
  return { kind: 'dynamic', name: name, pattern: new RegExp(`^${source}$`, 'u') };
}

/**
 * The pattern text of a list of segments, for messages: `/blog/[slug]`, `/` for none.
 * @example patternOf([{ kind: 'static', value: 'blog' }, { kind: 'dynamic', name: 'slug' }]) // '/blog/[slug]'
 */
export function patternOf(segments: readonly RouteSegment[]): string {
  const text = segments.map((s) => {
    switch (s.kind) {
      case 'static':
        return s.value;
      case 'dynamic':
        return s.pattern ? s.name : `[${s.name}]`;
      case 'optional':
        return s.value !== undefined ? `(${s.value})` : `[[${s.name}]]`;
      default:
        return s.min === 0 ? `[[...${s.name}]]` : `[...${s.name}]`;
    }
  });
  return `/${text.join('/')}`;
}
