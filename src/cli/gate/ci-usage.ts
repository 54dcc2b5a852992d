// The help text of `svc-a11y ci`: what it does, then every option (its lines are the settings' declarations).
import { optionsHelp } from '../settings/flags.js';
import { FREE_PLAN_URLS_PER_CHECK, MAX_URLS_PER_CHECK } from '../../vocabulary/index.js';

/** `svc-a11y ci --help`'s usage and options. */
export const CI_USAGE = `svc-a11y ci [url…] [options]

  Pages come from the arguments, --urls-file and --sitemap (or "urls" and "sitemap" in the config file); each
  is checked once (URLs are normalised: lower-case host, no default port, no #fragment). They are grouped by
  site (origin) and split into as few CI checks as the service's limit of ${MAX_URLS_PER_CHECK} pages allows (or
  --urls-per-check), all created as fast as the key's rate allows and polled on one schedule under one --timeout
  and one rate budget, and judged as one gate: any check FAIL → exit 1, otherwise any check not judged → exit 4.
  Each check's context carries its batch key (svcA11yBatch). A 429 (the service's rate, or its limit on checks at
  a time) is waited out; a Free-plan key's refusal of more than ${FREE_PLAN_URLS_PER_CHECK} URLs per check re-splits the run
  into checks of ${FREE_PLAN_URLS_PER_CHECK}, with a warning.

${optionsHelp('ci', 23)}

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it (a summary that cannot be written is a
  warning, not a failure); with GITHUB_ACTIONS=true, up to 10 error annotations are printed for findings that
  break the threshold.`;
