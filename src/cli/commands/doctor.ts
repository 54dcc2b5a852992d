// `svc-a11y doctor`: checks the set-up the other commands run with and prints one line per check, each problem with
// what to fix (as Lighthouse CI's `lhci healthcheck`). The checks are in doctor/; this file wires and prints them.
import { type Command, printJson } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { safeLine } from '../io/safe-text.js';
import { readSetting, SETTINGS } from '../settings/settings.js';
import { type CheckLine, exitCodeOf, lineText } from './doctor/lines.js';
import { runsOf } from './doctor/needs.js';
import { proxyLine } from './doctor/proxy.js';
import { redisLines } from './doctor/redis.js';
import { serviceLines } from './doctor/service.js';

/** `svc-a11y doctor [command…]`. */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check the set-up: key, base URL, scopes and plan, sites, rate limit, proxy, Redis',
  args: { min: 0, max: 16, names: '[command…]' },
  options: {},
  usage: `svc-a11y doctor [command…] [--json]

  Checks what the other commands run with and prints one line per check (ok, FAIL or info), each FAIL
  saying what to fix, then 'All is well.' (stdout) or an 'error:' line (stderr). It starts no job, changes
  nothing on the service, and never prints a secret.

  - the API key (--api-key / SVC_API_KEY) and the base URL (--base-url / SVC_BASE_URL): both set, the key
    accepted (a 401 names SVC_API_KEY), the base URL answering the API (an HTML page or a 404/405/501 that
    is not the API's problem document names SVC_BASE_URL), by listing the sites;
  - the scopes and plan features the commands need, by reads that change nothing: sites:read and
    API_ACCESS (the list of sites), scans:read and ci:check (a read of an id nothing has: 404 means held,
    a 403 names the scope or the feature), TREND_HISTORY (one point of a site's trend). scans:write and
    the features only starting a job needs are not shown by any read: the line says so;
  - the sites, one line each, and whether each is verified (CI checks need a verified site);
  - the rate limit the service reports: the rate-limit headers of its answer, and this CLI's own budget;
  - the proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), its credentials redacted;
  - the Redis of --redis-url / SVC_REDIS_URL, when set: reachable within 1 s, and its maxmemory-policy
    (read as the webhook replay store reads it, with one key of its own kept 1 ms): only noeviction keeps
    the shared rate budget's keys.

  command…   judge only what these commands need (e.g. 'svc-a11y doctor ci'): what they do not need is
             reported as info, not failed. Default: every command.
  --json     the checks as JSON: { ok, exitCode, checks: [{ id, label, status, text, kind }] }

  Exit codes of doctor: 0 all is well (info lines need nothing); 2 a setting is missing or malformed
  (the key, the base URL, the Redis or proxy URL, or the redis package SVC_REDIS_URL needs: fix it first,
  nothing could be asked); 3 the service, Redis or the proxy refused or answered wrong (401, 403, not the
  API, unreachable, no verified site, a Redis policy that evicts).`,
  async run(ctx) {
    const runs = runsOf(ctx.args);
    const env = ctx.out.io.env;
    const [service, redis] = await Promise.all([
      serviceLines({ values: ctx.values, env, out: ctx.out, runs }),
      redisLines(ctx.values, env),
    ]);
    const baseUrl = readSetting(SETTINGS.baseUrl, { values: ctx.values, env }).value;
    // Every line is made safe where it is printed: the service's text (a title, a site's name) and the URLs given.
    const safe = (line: CheckLine): CheckLine => ({
      ...line,
      label: safeLine(line.label, ctx.out.secrets),
      text: safeLine(line.text, ctx.out.secrets),
    });
    const lines = [...service, proxyLine(env, baseUrl), ...redis].map(safe);
    const code = exitCodeOf(lines);
    const problems = lines.filter((line) => line.status === 'fail').length;
    if (ctx.json) printJson(ctx, { ok: code === ExitCode.OK, exitCode: code, checks: lines });
    else ctx.out.out(`${lines.map(lineText).join('\n')}\n${problems === 0 ? 'All is well.\n' : ''}`);
    // The verdict of a failed run goes to stderr as every command's error does, so a script or a log reader finds it
    // where it finds the others' (the report on stdout stays the checks).
    if (problems > 0)
      ctx.out.error(
        `${problems} problem${problems === 1 ? '' : 's'} found: fix the FAIL line${problems === 1 ? '' : 's'} above (exit ${code})`,
      );
    return code;
  },
};
