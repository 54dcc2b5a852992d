// Public entry @svc/a11y-sdk/vocabulary: the service's vocabulary as values (the `failOn` thresholds, the statuses
// that end a page, URLs per CI check, the default rate), one definition each, for your own gate or dashboard and for
// the CLI. An entry of its own so that the root bundle does not carry them (~0.4 kB gzip) for the users who never
// need them; `isTerminalStatus` is the root's.
export {
  DEFAULT_FAIL_ON,
  FAIL_ON,
  FINISHED_PAGE_STATUSES,
  FREE_PLAN_URLS_PER_CHECK,
  MAX_URLS_PER_CHECK,
  pagesDone,
  SERVICE_REQUESTS_PER_MINUTE,
} from '../core/vocabulary.js';
