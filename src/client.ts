// The client: options in, resources out. Behaviour lives in the transport and the shared modules.
import { inspectSymbol } from './internal/redact.js';
import { type ClientOptions, resolveOptions } from './core/options.js';
import { CiChecks } from './resources/ci-checks.js';
import { Fixes, FixVerifications } from './resources/fixes.js';
import { JourneyRuns, Journeys } from './resources/journeys.js';
import { ScanRuns } from './resources/scan-runs.js';
import { Scans } from './resources/scans.js';
import { Sites } from './resources/sites.js';
import { Transport } from './resources/transport.js';

/**
 * Client of the Accessibility Checking Service Developer API v1.
 * @example
 * ```ts
 * import { A11yClient } from '@svc/a11y-sdk';
 * const client = new A11yClient(); // SVC_API_KEY and SVC_BASE_URL from the environment
 * const check = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'], failOn: 'NEW_CRITICAL' });
 * const findings = await client.ciChecks.listViolations(check.id);
 * ```
 */
export class A11yClient {
  /** Sites, their journeys, trend and tracked fixes. */
  readonly sites: Sites;
  /** Single-page scans. */
  readonly scans: Scans;
  /** Full-site scan runs. */
  readonly scanRuns: ScanRuns;
  /** Saved journeys. */
  readonly journeys: Journeys;
  /** Journey runs. */
  readonly journeyRuns: JourneyRuns;
  /** Tracked fixes. */
  readonly fixes: Fixes;
  /** Fix verifications. */
  readonly fixVerifications: FixVerifications;
  /** CI checks. */
  readonly ciChecks: CiChecks;
  /** The base URL requests go to. */
  readonly baseUrl: string;

  /** @throws ConfigurationError when no API key or base URL is given or found in the environment. */
  constructor(options: ClientOptions = {}) {
    const { apiKey, resolved } = resolveOptions(options);
    const transport = new Transport(resolved, apiKey);
    this.baseUrl = resolved.baseUrl;
    this.sites = new Sites(transport);
    this.scans = new Scans(transport);
    this.scanRuns = new ScanRuns(transport);
    this.journeys = new Journeys(transport);
    this.journeyRuns = new JourneyRuns(transport);
    this.fixes = new Fixes(transport);
    this.fixVerifications = new FixVerifications(transport);
    this.ciChecks = new CiChecks(transport);
  }

  /** What `JSON.stringify(client)` shows: never the key. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  /**
   * What `util.inspect(client)` shows: never the key. Internal (out of the .d.ts): each of the ESM and CommonJS
   * type declarations would declare its own `unique symbol`, making their `A11yClient` types incompatible.
   * @internal
   */
  [inspectSymbol](): string {
    return `A11yClient { baseUrl: '${this.baseUrl}' }`;
  }
}
