// A page checked more than once (`--recheck`) carries its attempts on its page entry, made safe with the check
// (prepare.ts copies the whole record): every report words them the same way, from here.
import type { Page } from '../../index.js';

/** One attempt at a page, as the reports show it. */
export interface PageAttempt {
  /** The page's status in that attempt (a FAILED check's page without one: `FAILED`). */
  status: string;
  /** 0 for the first check, N for recheck N. */
  recheck: number;
  /** The check it was in. */
  checkId?: string | undefined;
}

/**
 * A page entry of a report, with its attempts when it was checked again, and its journey and checkpoint label when
 * it is a journey's checkpoint (`ci --journey`).
 */
export type AttemptedPage = Page & {
  attempts?: PageAttempt[] | undefined;
  checkpoint?: { journey: string; label: string } | undefined;
};

/**
 * A page's attempts in words, for every report: `UNREACHABLE, then DONE on recheck 1`; undefined for a page checked once.
 * @example attemptsText({ attempts: [{ status: 'TIMEOUT', recheck: 0 }, { status: 'DONE', recheck: 1 }] }) // 'TIMEOUT, then DONE on recheck 1'
 */
function attemptsText(page: AttemptedPage | undefined): string | undefined {
  const list = Array.isArray(page?.attempts) ? page.attempts : [];
  if (list.length < 2) return undefined;
  return list.map((a, i) => (i === 0 ? String(a.status) : `then ${a.status} on recheck ${a.recheck}`)).join(', ');
}

/**
 * A page's status as the reports print it: its attempts when it was checked again, else its status, else `n/a`;
 * a journey's checkpoint adds its journey and label.
 * @example pageStatusText({ url: 'https://a.example/', status: 'DONE' }) // 'DONE'
 */
export function pageStatusText(page: AttemptedPage | undefined): string {
  return `${attemptsText(page) ?? page?.status ?? 'n/a'}${checkpointText(page)}`;
}

/**
 * The pages a report holds that were checked on a recheck (DONE at their last attempt, not their first), in report
 * order: the reports list them beside the pages that could not be checked.
 * @example checkedOnRecheck(report.check.pages).length // 1
 */
export function checkedOnRecheck(pages: readonly AttemptedPage[] | undefined): AttemptedPage[] {
  return (pages ?? []).filter((p) => p?.status === 'DONE' && attemptsText(p) !== undefined);
}

/**
 * ` (journey Guest checkout, checkpoint Cart)` for a page entry or finding of a journey's checkpoint, else '': every
 * report names a checkpoint's journey and label beside its URL.
 * @example checkpointText({ checkpoint: { journey: 'Guest checkout', label: 'Cart' } }) // ' (journey Guest checkout, checkpoint Cart)'
 */
export function checkpointText(record: object | undefined): string {
  // A CI check's records have no such field; a journey's (journey-report.ts) carry it, made safe with the rest.
  const c = (record as { checkpoint?: { journey: string; label: string } } | undefined)?.checkpoint;
  return c ? ` (journey ${c.journey}, checkpoint ${c.label || '(no label)'})` : '';
}
