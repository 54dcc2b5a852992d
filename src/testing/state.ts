// The seeded organisation: sites, journeys, tracked fixes, API keys with their scopes and plans. Ids derive
// from the seed (stable across instances); everything else about a site is fixed here.
import { seededUuid } from './random.js';

/** A scope of an API key. */
export type Scope = 'sites:read' | 'scans:write' | 'scans:read' | 'ci:check';
/** A plan feature. `REMEDIATION_TRACKING` stands for the document's "remediation tracking". */
export type Feature = 'API_ACCESS' | 'JOURNEYS' | 'AUTHENTICATED_SCANS' | 'TREND_HISTORY' | 'REMEDIATION_TRACKING';

/** What the simulator knows about a key. */
export interface KeyInfo {
  scopes: ReadonlySet<Scope>;
  plan: { name: string; features: ReadonlySet<Feature>; maxCiUrls: number };
}

/** A registered site. */
export interface SiteRecord {
  id: string;
  name: string;
  rootUrl: string;
  normalizedHost: string;
  verified: boolean;
  hasAuthProfile: boolean;
  /** Paths a scan run crawls, in order; empty when the root is unreachable (the run fails). */
  crawlPaths: string[];
}

/** A saved journey. */
interface JourneyRecord {
  id: string;
  siteId: string;
  name: string;
  usesAuth: boolean;
  createdAt: string;
  steps: Array<{ label: string; path: string }>;
  /** Index of the step that fails (its selector matches nothing), when the journey is broken. */
  failingStep?: number;
  /** With `failingStep`: the step fails in this many first runs only, then the journey completes. */
  failingRuns?: number;
}

/** A tracked fix (remediation item), with the pages its verification re-checks. */
export interface FixRecord {
  id: string;
  siteId: string;
  ruleId: string;
  impact: string;
  rootCauseKey: string;
  componentLabel: string;
  status: string;
  verifiedScope?: string;
  verifiedAt?: string;
  verifiedPagesCount?: number;
  nodesCountAtTracking: number;
  pagesCountAtTracking: number;
  verifiable: boolean;
  pages: string[];
}

/** API keys of the simulator, one per access profile. */
export interface SimulatorKeys {
  /** All four scopes, Pro plan (every feature). */
  full: string;
  /** `sites:read`, `scans:write`, `scans:read` — no `ci:check` (403 `API_KEY_SCOPE_MISSING` on CI endpoints). */
  noCi: string;
  /** All four scopes, Free plan: no `TREND_HISTORY` (403 `FEATURE_NOT_IN_PLAN`), at most 5 URLs per CI check. */
  freePlan: string;
}

/** Ids of the seeded resources (stable for a given seed). */
export interface SimulatorIds {
  /** https://shop.example.com/ — verified, with a saved auth profile. */
  verifiedSite: string;
  /** https://blog.example.org/ — not verified (409 `DOMAIN_NOT_VERIFIED` for CI), no auth profile. */
  unverifiedSite: string;
  /** https://legacy.example.net/ — verified, but its root is unreachable: scan runs end FAILED. */
  offlineSite: string;
  /** Journey without auth on the verified site; completes. */
  guestJourney: string;
  /** Journey with auth on the verified site; completes. */
  authJourney: string;
  /** Journey with auth on the unverified site, which has no auth profile (422 `SITE_AUTH_NOT_CONFIGURED`). */
  authJourneyNoProfile: string;
  /** Journey on the verified site whose third step fails (FAILED, `failedStepIndex` 2). */
  failingJourney: string;
  /** Journey on the verified site whose second step fails in its first run only (`failedStepIndex` 1), then completes. */
  flakyJourney: string;
  /** Verifiable OPEN fix; its verification completes with outcome `FIXED` (and the fix becomes VERIFIED). */
  fix: string;
  /** Fix already VERIFIED at seeding. */
  verifiedFix: string;
  /** Verifiable fix still present: its verification completes with outcome `NOT_FIXED`. */
  regressedFix: string;
  /** Fix that cannot be verified automatically (`verifiable: false`; verification answers 422). */
  unverifiableFix: string;
  /** Fix whose pages cannot be reached: its verification ends FAILED (`ALL_PAGES_FAILED`). */
  unreachableFix: string;
  /** The latest of two COMPLETED scan runs seeded on the verified site (the trend's history). */
  lastScanRun: string;
}

/** The seeded organisation. */
export interface Organisation {
  sites: SiteRecord[];
  journeys: JourneyRecord[];
  fixes: FixRecord[];
  keys: Map<string, KeyInfo>;
}

const ALL_SCOPES: Scope[] = ['sites:read', 'scans:write', 'scans:read', 'ci:check'];
const PRO = {
  name: 'Pro',
  features: new Set<Feature>([
    'API_ACCESS',
    'JOURNEYS',
    'AUTHENTICATED_SCANS',
    'TREND_HISTORY',
    'REMEDIATION_TRACKING',
  ]),
  maxCiUrls: 20,
};
const FREE = {
  name: 'Free',
  features: new Set<Feature>(['API_ACCESS', 'JOURNEYS', 'AUTHENTICATED_SCANS', 'REMEDIATION_TRACKING']),
  maxCiUrls: 5,
};
const DAY = 86_400_000;

/** The fixed API keys (the same in every instance). */
export const SIM_KEYS: SimulatorKeys = Object.freeze({
  full: 'svc_sim_full_0c5e6f2a9b7d4e81',
  noCi: 'svc_sim_noci_3a8d1c4f6e2b9a70',
  freePlan: 'svc_sim_free_7b2e9d0c5a4f1e36',
});

/**
 * Builds the seeded organisation. Its ids (minus `lastScanRun`, which the scan-run history adds) derive
 * from `seed`; `now` dates the journeys and the verified fix.
 */
export function seedOrganisation(
  seed: number,
  now: number,
): { org: Organisation; ids: Omit<SimulatorIds, 'lastScanRun'> } {
  const id = (name: string) => seededUuid(seed, name);
  const ids = {
    verifiedSite: id('site:shop'),
    unverifiedSite: id('site:blog'),
    offlineSite: id('site:legacy'),
    guestJourney: id('journey:guest-checkout'),
    authJourney: id('journey:account-settings'),
    authJourneyNoProfile: id('journey:blog-admin'),
    failingJourney: id('journey:gift-card'),
    flakyJourney: id('journey:newsletter'),
    fix: id('fix:product-thumb'),
    verifiedFix: id('fix:btn-secondary'),
    regressedFix: id('fix:promo-banner'),
    unverifiableFix: id('fix:video-caption'),
    unreachableFix: id('fix:legacy-promo'),
  };
  const shop = 'https://shop.example.com';
  const sites: SiteRecord[] = [
    {
      id: ids.verifiedSite,
      name: 'Example shop',
      rootUrl: `${shop}/`,
      normalizedHost: 'shop.example.com',
      verified: true,
      hasAuthProfile: true,
      crawlPaths: ['/', '/products', '/products/running-shoe', '/sale', '/cart', '/checkout', '/account', '/help'],
    },
    {
      id: ids.unverifiedSite,
      name: 'Example blog',
      rootUrl: 'https://blog.example.org/',
      normalizedHost: 'blog.example.org',
      verified: false,
      hasAuthProfile: false,
      crawlPaths: ['/', '/posts/hello-world', '/posts/accessible-forms', '/about'],
    },
    {
      id: ids.offlineSite,
      name: 'Legacy intranet',
      rootUrl: 'https://legacy.example.net/',
      normalizedHost: 'legacy.example.net',
      verified: true,
      hasAuthProfile: false,
      crawlPaths: [],
    },
  ];
  const at = (days: number) => new Date(now - days * DAY).toISOString();
  const journeys: JourneyRecord[] = [
    {
      id: ids.guestJourney,
      siteId: ids.verifiedSite,
      name: 'Guest checkout',
      usesAuth: false,
      createdAt: at(30),
      steps: [
        { label: 'Cart', path: '/cart' },
        { label: 'Shipping', path: '/checkout/shipping' },
        { label: 'Payment', path: '/checkout/payment' },
      ],
    },
    {
      id: ids.authJourney,
      siteId: ids.verifiedSite,
      name: 'Account settings',
      usesAuth: true,
      createdAt: at(29),
      steps: [
        { label: 'Account', path: '/account' },
        { label: 'Settings', path: '/account/settings' },
      ],
    },
    {
      id: ids.authJourneyNoProfile,
      siteId: ids.unverifiedSite,
      name: 'Blog admin',
      usesAuth: true,
      createdAt: at(20),
      steps: [{ label: 'Dashboard', path: '/admin' }],
    },
    {
      id: ids.failingJourney,
      siteId: ids.verifiedSite,
      name: 'Gift card purchase',
      usesAuth: false,
      createdAt: at(10),
      failingStep: 2,
      steps: [
        { label: 'Gift cards', path: '/gift-cards' },
        { label: 'Amount', path: '/gift-cards/amount' },
        { label: 'Pay', path: '/gift-cards/pay' },
      ],
    },
    {
      id: ids.flakyJourney,
      siteId: ids.verifiedSite,
      name: 'Newsletter sign-up',
      usesAuth: false,
      createdAt: at(5),
      failingStep: 1,
      failingRuns: 1,
      steps: [
        { label: 'Home', path: '/' },
        { label: 'Sign-up form', path: '/newsletter' },
      ],
    },
  ];
  const fix = (f: Omit<FixRecord, 'siteId' | 'verifiable' | 'status'> & Partial<FixRecord>): FixRecord => ({
    siteId: ids.verifiedSite,
    verifiable: true,
    status: 'OPEN',
    ...f,
  });
  const fixes: FixRecord[] = [
    fix({
      id: ids.fix,
      ruleId: 'image-alt',
      impact: 'critical',
      rootCauseKey: 'image-alt:img.product-thumb',
      componentLabel: 'Product card',
      nodesCountAtTracking: 30,
      pagesCountAtTracking: 9,
      pages: [`${shop}/`, `${shop}/sale`],
    }),
    fix({
      id: ids.verifiedFix,
      ruleId: 'color-contrast',
      impact: 'serious',
      rootCauseKey: 'color-contrast:.btn-secondary',
      componentLabel: 'Secondary button',
      status: 'VERIFIED',
      verifiedScope: 'ROOT_CAUSE',
      verifiedAt: at(5),
      verifiedPagesCount: 2,
      nodesCountAtTracking: 18,
      pagesCountAtTracking: 6,
      pages: [`${shop}/`, `${shop}/checkout`],
    }),
    fix({
      id: ids.regressedFix,
      ruleId: 'image-alt',
      impact: 'critical',
      rootCauseKey: 'image-alt:img.promo-banner',
      componentLabel: 'Promo banner',
      nodesCountAtTracking: 4,
      pagesCountAtTracking: 2,
      pages: [`${shop}/sale?regress=2`, `${shop}/`],
    }),
    fix({
      id: ids.unverifiableFix,
      ruleId: 'video-caption',
      impact: 'critical',
      rootCauseKey: 'video-caption:video.product-demo',
      componentLabel: 'Product video',
      verifiable: false,
      nodesCountAtTracking: 3,
      pagesCountAtTracking: 3,
      pages: [`${shop}/products`],
    }),
    fix({
      id: ids.unreachableFix,
      ruleId: 'link-name',
      impact: 'serious',
      rootCauseKey: 'link-name:a.legacy-promo',
      componentLabel: 'Legacy promo link',
      nodesCountAtTracking: 2,
      pagesCountAtTracking: 2,
      pages: [`${shop}/unreachable/legacy-promo`, `${shop}/timeout/old-sale`],
    }),
  ];
  const keys = new Map<string, KeyInfo>([
    [SIM_KEYS.full, { scopes: new Set(ALL_SCOPES), plan: PRO }],
    [SIM_KEYS.noCi, { scopes: new Set<Scope>(['sites:read', 'scans:write', 'scans:read']), plan: PRO }],
    [SIM_KEYS.freePlan, { scopes: new Set(ALL_SCOPES), plan: FREE }],
  ]);
  return { org: { sites, journeys, fixes, keys }, ids };
}

/** The registered site whose host is the URL's host, if any. */
export function siteForUrl(org: Organisation, url: URL): SiteRecord | undefined {
  const host = url.hostname.toLowerCase();
  return org.sites.find((s) => s.normalizedHost === host);
}
