// The help text of `svc-a11y ci`: every option, its default and where else it may be set.
import { DEFAULT_CONFIG_FILE } from '../settings/config.js';
import { MAX_URLS_PER_CHECK } from '../ci/batches.js';
import { FREE_PLAN_URLS_PER_CHECK } from '../ci/free-plan.js';
import { FAIL_ON } from '../report/fail-on.js';
import { REPORT_FORMATS } from '../report/formats.js';
import { DEFAULT_MAX_URLS } from '../settings/settings.js';
import { DEFAULT_SUPPRESSIONS_FILE } from '../report/suppressions.js';

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

  --fail-on <rule>       ${FAIL_ON.join(' | ')} (service default when omitted);
                         per-URL thresholds go in the config file (failOnByUrl): under --fail-on they may make
                         a page stricter, never more lenient
  --set-baseline         save every completed check as the baseline of future checks; on a pull or merge
                         request (as the CI says) only this flag sets it, never the config file, with a warning
  --no-set-baseline      do not, whatever the config file says
  --context key=value    caller metadata (repeatable); repository, branch, commit and pull request are
                         filled from the CI environment when its usual variables exist
  --timeout <duration>   overall wait of the whole run, e.g. 10m (default 10m)
  --format <format>      stdout format: ${REPORT_FORMATS.join(' | ')} (default text)
  --report FORMAT=FILE   also write a report file (repeatable), e.g. --report junit=a11y.xml --report html=a11y.html;
                         every path is checked before the check starts (exit 2 naming it), and the files are
                         written on every outcome that has a check (PASS, FAIL, a failed job, a wait that timed out)
  --sarif-map PREFIX=FILE  findings on pages under a URL path prefix point at a source file (repeatable), e.g.
                         --sarif-map /checkout=src/pages/checkout.tsx (longest prefix wins in SARIF; FILE may be a
                         glob such as src/checkout/** for --changed-since). SARIF holds the findings that break
                         the threshold, suppressed ones marked as such
  --sarif-map auto|none  auto (the default where a project is recognised): SARIF, Code Quality, HTML and
                         annotations point each page at the route file that renders it, read from a Next.js
                         (app/, pages/), Astro, SvelteKit, Nuxt, Remix / React Router flat routes or static site
                         (HTML files, no package.json); PREFIX=FILE entries win for their pages; none turns it
                         off. An explicit auto with no recognised project is an error (exit 2)
  --source-root <dir>    the project --sarif-map auto reads (default the working directory)
  --base-path <path>     the URL path the site is served under, e.g. /docs, removed before matching routes
                         (default Next.js' basePath where next.config.* gives it as a string literal)
  --sarif-category <id>  the SARIF run's category (automationDetails.id), e.g. a11y/shop/checkout: runs uploaded
                         together to GitHub code scanning (a matrix job's checks) each need their own
  --urls-file <file>     URLs to check, one a line (# comments and blank lines skipped)
  --sitemap <url|file>   check the pages of a sitemap or sitemap index (repeatable; nested and .gz too). Bounded:
                         10 MiB per document, 32 MiB and 100 documents in all, indexes 3 deep, 60 s; a redirect to another
                         origin, a DOCTYPE/entity declaration or anything past a bound is refused (exit 2)
  --sitemap-exclude <regex>  leave out sitemap pages whose URL matches
  --sitemap-find <regex>     with --sitemap-replace <text>: rewrite sitemap URLs, e.g. point production
  --sitemap-replace <text>   URLs at a preview host (--sitemap-find ^https://www.example.com --sitemap-replace
                             https://preview-42.example.com); the service must reach it and it must be a
                             registered, verified site of your organisation: never localhost
  --max-urls <n>         refuse a run of more than n URLs in all (default ${DEFAULT_MAX_URLS})
  --urls-per-check <n>   at most n URLs per CI check, 1 to ${MAX_URLS_PER_CHECK} (default ${MAX_URLS_PER_CHECK}; $SVC_URLS_PER_CHECK); ${FREE_PLAN_URLS_PER_CHECK} on the
                         Free plan saves the one refused create that finds it out
  --max-checks <n>       at most n CI checks in flight at once (default: no cap, as many as the rate allows;
                         $SVC_MAX_CHECKS)
  --changed-since <ref>  check only pages whose --sarif-map files changed since the git ref (git diff --name-only),
                         plus every page no entry maps; no change → exit 0 saying no page was affected
  --suppressions <file>  reviewed suppressions (default: ${DEFAULT_SUPPRESSIONS_FILE} beside the config file, if
                         present): { "suppressions": [ { "ruleId", "url"?, "target"?, "fingerprint"?, "reason",
                         "expires": "YYYY-MM-DD" } ] }. A suppressed finding does not count toward --fail-on and
                         is shown as suppressed (SARIF suppressions, JUnit skipped); expired entries warn and
                         suppress nothing; entries that matched nothing are reported as stale
  --config <file>        a JSON config file (default: ${DEFAULT_CONFIG_FILE} in the working directory, if present)
                         with urls, sitemap, sitemapExclude, sitemapFind, sitemapReplace, maxUrls, urlsPerCheck,
                         maxChecks, failOn, failOnByUrl [{url, failOn}], setBaseline, timeout, format,
                         reports {format: file}, sarifCategory, context, sarifMap {prefix: file} | "auto" | "none",
                         sourceRoot, basePath and suppressions;
                         flags win over it
  -q, --quiet            no progress and no stdout report (reports and the exit code remain)

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it (a summary that cannot be written is a
  warning, not a failure); with GITHUB_ACTIONS=true, up to 10 error annotations are printed for findings that
  break the threshold.`;
