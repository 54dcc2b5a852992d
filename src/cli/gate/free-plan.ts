// The Free plan's cap on a CI check's URLs (document §8: "URLs per CI check: 1 to 20; the Free plan accepts up to
// 5, paid plans up to 20"). A key does not say its plan, so a run finds out when a create of more is refused: 422
// VALIDATION_FAILED. Clients branch on the code, never on the detail (document §7, rule 2): a create of more than
// five URLs refused VALIDATION_FAILED is taken as the Free plan's cap. Were it refused for another reason, the
// smaller checks are refused too, and that refusal is the run's error.
import { ApiError } from '../../index.js';
import { FREE_PLAN_URLS_PER_CHECK } from '../../vocabulary/index.js';
import { type Batch, planBatches } from './batches.js';

/**
 * Whether `error` refused a create of `urls` URLs as the Free plan refuses more than it takes.
 * @example isFreePlanRefusal(error, 12) // true for a 422 VALIDATION_FAILED
 */
export function isFreePlanRefusal(error: unknown, urls: number): boolean {
  return (
    urls > FREE_PLAN_URLS_PER_CHECK &&
    error instanceof ApiError &&
    error.status === 422 &&
    error.code === 'VALIDATION_FAILED'
  );
}

/**
 * The warning said once when a run goes on in checks of the Free plan's size.
 * The service's detail is left out: it is the service's text, and the code says what matters.
 * @example freePlanWarning(12)
 */
export function freePlanWarning(refusedUrls: number): string {
  return `warning: the service refused a CI check of ${refusedUrls} URLs (422 VALIDATION_FAILED); the Free plan takes at most ${FREE_PLAN_URLS_PER_CHECK} URLs per check, so the run goes on in checks of ${FREE_PLAN_URLS_PER_CHECK} (--urls-per-check ${FREE_PLAN_URLS_PER_CHECK} starts so)`;
}

/**
 * The run's batches once the Free plan's cap is known: each site whose batches are all still to be created and
 * hold more than `cap` URLs is split again into checks of at most `cap` (the same layout rule, so the same pages give
 * the same batches); every other batch stays as it is, in place.
 * @default cap FREE_PLAN_URLS_PER_CHECK (5)
 * @example resplit(batches, (b) => !created.has(b)).map((b) => b.urls.length) // [5, 5, 5, 5] for one site of 20
 */
export function resplit<B extends Batch>(
  batches: readonly B[],
  waiting: (batch: B) => boolean,
  cap = FREE_PLAN_URLS_PER_CHECK,
): Array<B | Batch> {
  const bySite = new Map<string, B[]>();
  for (const b of batches) bySite.get(b.origin)?.push(b) ?? bySite.set(b.origin, [b]);
  const out: Array<B | Batch> = [];
  for (const [, site] of bySite) {
    const again = site.every(waiting) && site.some((b) => b.urls.length > cap);
    out.push(
      ...(again
        ? planBatches(
            site.flatMap((b) => b.urls),
            { maxPerCheck: cap },
          )
        : site),
    );
  }
  return out;
}
