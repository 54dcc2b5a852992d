// Deterministic findings: each page URL yields a stable list of findings, a function of (seed, URL) only.
// URL conventions let tests steer outcomes (documented on startSimulator).
import type { components } from '../../generated/schema.js';
import { fingerprint, hash32, prng } from './random.js';

/** Finding counts by impact. */
export type SeverityCounts = Required<components['schemas']['V1SeverityCounts']>;
/** Impact of a finding (axe's four levels). */
export type Impact = keyof SeverityCounts;
/** Outcome of checking one page (`QUEUED`/`RUNNING` are progress states, never outcomes). */
type PageOutcome = 'DONE' | 'TIMEOUT' | 'UNREACHABLE' | 'ERROR';

/** One finding on one page, with everything any view of it needs. */
export interface Finding {
  ruleId: string;
  impact: Impact;
  wcagSc: string[];
  url: string;
  helpUrl: string;
  target: string;
  htmlSnippet: string;
  failureSummary: string;
  /** Hash of (ruleId, normalized URL, target); see {@link normalizePageUrl}. */
  fingerprint: string;
}

/** The result of checking one page. */
export interface PageResult {
  /** The URL as requested. */
  url: string;
  status: PageOutcome;
  /** Empty unless `status` is `DONE`. */
  findings: Finding[];
}

interface Rule {
  impact: Impact;
  wcagSc: string[];
  summary: string;
  guidance: string;
  exampleFix: string;
  // [selector, html snippet]; shared by all pages so that scan runs show cross-page root causes.
  nodes: Array<[string, string]>;
}

/** The rules the simulator reports, after axe-core's rule ids. */
export const RULES: Record<string, Rule> = {
  'image-alt': {
    impact: 'critical',
    wcagSc: ['1.1.1'],
    summary: 'Fix any of the following: Element does not have an alt attribute',
    guidance: 'Give every meaningful image a text alternative; mark decorative images with alt="".',
    exampleFix: '<img class="hero" src="hero.jpg" alt="Autumn collection: three models in coats">',
    nodes: [
      ['img.hero', '<img class="hero" src="hero.jpg">'],
      ['main img.card-image', '<img class="card-image" src="card.jpg">'],
      ['header img.logo', '<img class="logo" src="logo.svg">'],
    ],
  },
  'color-contrast': {
    impact: 'serious',
    wcagSc: ['1.4.3'],
    summary: 'Fix any of the following: Element has insufficient color contrast of 3.2',
    guidance: 'Raise the contrast of text against its background to at least 4.5:1 (3:1 for large text).',
    exampleFix: '<button class="btn-ghost" style="color:#1a1a1a;background:#fff">Details</button>',
    nodes: [
      ['button.btn-ghost', '<button class="btn-ghost">Details</button>'],
      ['footer .legal-text', '<p class="legal-text">© Example</p>'],
      ['nav a.subtle', '<a class="subtle" href="/help">Help</a>'],
    ],
  },
  label: {
    impact: 'critical',
    wcagSc: ['1.3.1', '4.1.2'],
    summary: 'Fix any of the following: Form element does not have an implicit (wrapped) <label>',
    guidance: 'Associate every form field with a visible <label> (or aria-labelledby).',
    exampleFix: '<label for="search">Search products</label><input id="search" type="search">',
    nodes: [
      ['input#search', '<input id="search" type="search">'],
      ['input[name="email"]', '<input name="email" type="email">'],
    ],
  },
  'link-name': {
    impact: 'serious',
    wcagSc: ['2.4.4', '4.1.2'],
    summary: 'Fix all of the following: Element is in tab order and does not have accessible text',
    guidance: 'Give every link a discernible name that says where it goes.',
    exampleFix: '<a class="card-link" href="/products/1">Running shoe</a>',
    nodes: [
      ['a.social-icon', '<a class="social-icon" href="https://social.example"><svg></svg></a>'],
      ['a.card-link', '<a class="card-link" href="/products/1"></a>'],
    ],
  },
  'button-name': {
    impact: 'critical',
    wcagSc: ['4.1.2'],
    summary: 'Fix any of the following: Element does not have inner text that is visible to screen readers',
    guidance: 'Give icon-only buttons an accessible name (visually hidden text or aria-label).',
    exampleFix: '<button class="icon-close" aria-label="Close dialog"><svg aria-hidden="true"></svg></button>',
    nodes: [
      ['button.icon-close', '<button class="icon-close"><svg></svg></button>'],
      ['button.menu-toggle', '<button class="menu-toggle"><svg></svg></button>'],
    ],
  },
  'heading-order': {
    impact: 'moderate',
    wcagSc: ['1.3.1'],
    summary: 'Fix any of the following: Heading order invalid',
    guidance: 'Do not skip heading levels; nest sections in order (h2, then h3).',
    exampleFix: '<h3 class="section-title">Popular</h3>',
    nodes: [
      ['h4.section-title', '<h4 class="section-title">Popular</h4>'],
      ['aside h5', '<h5>Related</h5>'],
    ],
  },
  'image-redundant-alt': {
    impact: 'minor',
    wcagSc: ['1.1.1'],
    summary: 'Fix all of the following: Element has alt text that duplicates adjacent text',
    guidance: 'Do not repeat the link or caption text in an image’s alt attribute.',
    exampleFix: '<figure><img class="thumbnail" alt="" src="shoe.jpg"><figcaption>Shoe</figcaption></figure>',
    nodes: [['figure img.thumbnail', '<img class="thumbnail" alt="Shoe" src="shoe.jpg">']],
  },
};

const RULE_IDS = Object.keys(RULES);

/** The help page of a rule. */
function helpUrl(ruleId: string): string {
  return `https://dequeuniversity.com/rules/axe/4.10/${ruleId}`;
}

/**
 * The URL fingerprints hash: the fragment and the simulator's steering parameters `regress` and `flaky` removed,
 * so a page checked with `?regress=1` keeps the fingerprints of its ordinary findings.
 * @example normalizePageUrl('https://shop.example.com/sale?regress=2&x=1#top') // 'https://shop.example.com/sale?x=1'
 */
export function normalizePageUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  parsed.searchParams.delete('regress');
  parsed.searchParams.delete('flaky');
  return parsed.href;
}

/**
 * The root-cause signature of a selector: positional pseudo-classes removed, so that the same component at
 * different positions groups together.
 * @example selectorSignature('img.promo-banner:nth-of-type(2)') // 'img.promo-banner'
 */
export function selectorSignature(target: string): string {
  return target.replace(/:nth-(?:child|of-type)\(\d+\)/g, '');
}

/**
 * Checks one page. Steering: a path containing `/unreachable`, `/timeout` or `/error` gives that outcome with
 * no findings; `/clean` gives no findings; `?regress=N` (0–50) adds N critical `image-alt` findings on
 * `img.promo-banner:nth-of-type(k)`. `extraCritical` adds more of those (seeded scan-run history).
 * @default extraCritical 0
 * @example checkPage(1, 'https://shop.example.com/clean?regress=1').findings.length // 1 (one critical image-alt)
 */
export function checkPage(seed: number, url: string, extraCritical = 0): PageResult {
  const parsed = new URL(url);
  const path = parsed.pathname.toLowerCase();
  if (path.includes('/unreachable')) return { url, status: 'UNREACHABLE', findings: [] };
  if (path.includes('/timeout')) return { url, status: 'TIMEOUT', findings: [] };
  if (path.includes('/error')) return { url, status: 'ERROR', findings: [] };
  const normalized = normalizePageUrl(url);
  const findings: Finding[] = [];
  const make = (ruleId: string, target: string, htmlSnippet: string): Finding => {
    const rule = RULES[ruleId]!;
    return {
      ruleId,
      impact: rule.impact,
      wcagSc: [...rule.wcagSc],
      url,
      helpUrl: helpUrl(ruleId),
      target,
      htmlSnippet,
      failureSummary: rule.summary,
      fingerprint: fingerprint(ruleId, normalized, target),
    };
  };
  if (!path.includes('/clean')) {
    const next = prng(hash32(`${seed}|${normalized}`));
    const picks = 1 + Math.floor(next() * 5);
    const seen = new Set<string>();
    for (let i = 0; i < picks; i++) {
      const ruleId = RULE_IDS[Math.floor(next() * RULE_IDS.length)]!;
      const nodes = RULES[ruleId]!.nodes;
      const [target, snippet] = nodes[Math.floor(next() * nodes.length)]!;
      // One finding per (rule, element): a duplicate would share its fingerprint.
      if (seen.has(`${ruleId} ${target}`)) continue;
      seen.add(`${ruleId} ${target}`);
      findings.push(make(ruleId, target, snippet));
    }
  }
  const regress = Number.parseInt(parsed.searchParams.get('regress') ?? '0', 10);
  const extra = Math.min(50, Math.max(0, Number.isFinite(regress) ? regress : 0) + extraCritical);
  for (let k = 1; k <= extra; k++) {
    findings.push(
      make('image-alt', `img.promo-banner:nth-of-type(${k})`, `<img class="promo-banner" src="promo-${k}.jpg">`),
    );
  }
  return { url, status: 'DONE', findings };
}

/** All-zero counts. */
export function zeroCounts(): SeverityCounts {
  return { critical: 0, serious: 0, moderate: 0, minor: 0 };
}

/** Counts findings by impact. */
export function countFindings(findings: readonly Finding[]): SeverityCounts {
  const counts = zeroCounts();
  for (const f of findings) counts[f.impact]++;
  return counts;
}
