// doctor's checks of the service, in the order they are printed: the key and the base URL, told by the list of sites
// (the read a key with sites:read and a plan with API_ACCESS may make), then the other scopes and features
// (access.ts), the sites and the rate limit (sites.ts). What the list of sites' failure says about each is here.
import {
  type A11yClient,
  ApiConnectionError,
  ApiError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  type Site,
} from '../../../index.js';
import { answerIsNotTheApi, apiErrorHint } from '../../api-hints.js';
import { clientFrom } from '../../context.js';
import { UsageError } from '../../exit-codes.js';
import type { Output } from '../../io/output.js';
import { PROXY_VARIABLES, proxySettings } from '../../io/proxy.js';
import { withoutUrlCredentials } from '../../io/safe-text.js';
import { describeSource, readSetting, SETTINGS } from '../../settings/settings.js';
import { accessLines, refusal } from './access.js';
import { answerText, clip, ONCE, retryAfter, type ServiceInputs, SITES } from './answers.js';
import { type CheckLine, fail, info, ok } from './lines.js';
import { journeyLines } from './journeys.js';
import { rateLimitLine, siteLines } from './sites.js';

/**
 * The lines of the service's checks, in order: API key, base URL, access to the sites (scope sites:read, plan
 * feature API_ACCESS), scans:read, ci:check, TREND_HISTORY, what no read reveals, the sites, the rate limit.
 */
export async function serviceLines(input: ServiceInputs): Promise<CheckLine[]> {
  const { values, env, out } = input;
  const key = readSetting(SETTINGS.apiKey, { values, env });
  const base = readSetting(SETTINGS.baseUrl, { values, env });
  const missing: CheckLine[] = [];
  if (!key.value)
    missing.push(
      fail(
        'api-key',
        'API key',
        "missing: set SVC_API_KEY or pass --api-key (keys are created in the organization's settings, under Developer API)",
        'setting',
      ),
    );
  if (!base.value)
    missing.push(
      fail(
        'base-url',
        'base URL',
        "missing: set SVC_BASE_URL or pass --base-url (the service's address, without /api/v1)",
        'setting',
      ),
    );
  if (missing.length) return [...missing, notAsked('the API key and the base URL')];
  const cleanups: Array<() => Promise<void>> = [];
  try {
    let client: A11yClient;
    try {
      // Redis is checked on a line of its own: a Redis that fails is that line, not a warning on every request.
      const { 'redis-url': _redisFlag, ...flags } = values;
      const { SVC_REDIS_URL: _redisVariable, ...rest } = env;
      client = clientFrom(flags, rest, out, cleanups);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return [settingFailure(error.message), notAsked('valid settings')];
    }
    const shown = `${withoutUrlCredentials(base.value!)} (${describeSource(base.source)})`;
    return await ask(client, input, { key: describeSource(key.source), base: shown });
  } finally {
    await Promise.all(cleanups.map((close) => close().catch(() => undefined)));
  }
}

// A setting the client refused (the SDK's check of the base URL, a bad --rate-limit): the line of that setting.
function settingFailure(message: string): CheckLine {
  if (/^the API key/.test(message)) return fail('api-key', 'API key', message, 'setting');
  if (/base URL/.test(message)) return fail('base-url', 'base URL', message, 'setting');
  return fail('settings', 'settings', message, 'setting');
}

// The checks that need an answer the service did not give (the rate limit has its own line when an answer came).
const notAsked = (what: string, rateLimit = true): CheckLine =>
  info('service', `scopes, plan features, sites${rateLimit ? ', rate limit' : ''}`, `not checked: they need ${what}`);

async function ask(
  client: A11yClient,
  input: ServiceInputs,
  names: { key: string; base: string },
): Promise<CheckLine[]> {
  const { runs } = input;
  let sites: Site[];
  let headers: Headers;
  try {
    const { data, response } = await client.sites.list(ONCE).withResponse();
    sites = data;
    headers = response.headers;
  } catch (error) {
    return sitesRefused(error, client, input, names);
  }
  return [
    ok('api-key', 'API key', `accepted (${names.key})`),
    ok('base-url', 'base URL', `${names.base} answers the Developer API v1`),
    ok('access:sites', ACCESS, `held: ${SITES} answered 200 (${runs.neededBy('sites:read')})`),
    ...(await accessLines(client, input, sites)),
    ...siteLines(sites, runs),
    ...(await journeyLines(client, input, sites)),
    rateLimitLine(headers, input),
  ];
}

const ACCESS = 'scope sites:read, plan feature API_ACCESS';

// GET /sites failed: what the failure says about the key, the base URL and the rest.
async function sitesRefused(
  error: unknown,
  client: A11yClient,
  input: ServiceInputs,
  names: { key: string; base: string },
): Promise<CheckLine[]> {
  const { out } = input;
  const answer = (e: ApiError) => answerText(e);
  if (error instanceof ApiError && error.status === 401) {
    const fromApi = error.problem?.code !== undefined;
    return [
      fail(
        'api-key',
        'API key',
        `refused: ${SITES} answered ${answer(error)}; check ${names.key}: the key may be mistyped, revoked, or of another organization`,
        'service',
      ),
      fromApi
        ? ok(
            'base-url',
            'base URL',
            `${names.base} answers the Developer API v1 (its 401 is the API's problem document)`,
          )
        : info(
            'base-url',
            'base URL',
            `${names.base} answered 401 without the API's problem document: if the key is right, check ${names.base.includes('--base-url') ? '--base-url' : 'SVC_BASE_URL (or --base-url)'}`,
          ),
      notAsked('an accepted key', false),
      rateLimitLine(error.headers, input),
    ];
  }
  if (error instanceof ApiError && answerIsNotTheApi(error)) {
    return [
      info('api-key', 'API key', 'not checked: the base URL did not answer as the API'),
      fail(
        'base-url',
        'base URL',
        `${names.base}: ${SITES} answered ${answer(error)}. ${apiErrorHint(error, undefined)}?`,
        'service',
      ),
      notAsked('the API at the base URL'),
    ];
  }
  if (error instanceof ApiError && error.status === 403) {
    return [
      ok('api-key', 'API key', `accepted (${names.key}): its 403 is about what it may do`),
      ok('base-url', 'base URL', `${names.base} answers the Developer API v1`),
      refusal(error, SITES, ACCESS, 'access:sites', input, { scope: 'sites:read', feature: 'API_ACCESS' }),
      ...(await accessLines(client, input, undefined)),
      info('sites', 'sites', 'not listed: the key may not list them (see above)'),
      rateLimitLine(error.headers, input),
    ];
  }
  if (error instanceof ApiError && error.status === 429) {
    return [
      ok('api-key', 'API key', `accepted (${names.key})`),
      ok('base-url', 'base URL', `${names.base} answers the Developer API v1`),
      fail(
        'rate-limit',
        'rate limit',
        `the key is rate limited now: ${SITES} answered ${answer(error)}${retryAfter(error.headers)}; jobs using the same key share its rate (120 requests per minute by default): run again later, and share one budget between them with --redis-url / SVC_REDIS_URL`,
        'service',
      ),
      notAsked('an answer that is not 429', false),
    ];
  }
  if (error instanceof ApiError) {
    return [
      info('api-key', 'API key', 'not checked: the service answered with an error'),
      fail(
        'base-url',
        'base URL',
        `${names.base}: ${SITES} answered ${answer(error)}${error.status >= 500 ? ' (the service, or a proxy in front of it, failed: run again later, and quote the traceId to support if it lasts)' : ''}`,
        'service',
      ),
      notAsked('the list of sites'),
    ];
  }
  const notApi = notTheApi(error, names.base, out);
  if (notApi)
    return [
      info('api-key', 'API key', 'not checked: the base URL did not answer as the API'),
      notApi,
      notAsked('the API at the base URL'),
    ];
  throw error;
}

// What a base URL that is not the API (or not reachable) makes of a call, or undefined for another error.
function notTheApi(error: unknown, base: string, out: Output): CheckLine | undefined {
  const message = (e: Error) => clip(e.message);
  if (error instanceof ResponseValidationError)
    return fail(
      'base-url',
      'base URL',
      `${base} answered ${SITES} with something that is not the API (${message(error)}): is SVC_BASE_URL (or --base-url) the service's API address?`,
      'service',
    );
  if (error instanceof RedirectError || error instanceof ResponseTooLargeError)
    return fail(
      'base-url',
      'base URL',
      `${base}: ${message(error)} Is SVC_BASE_URL (or --base-url) the service's API address?`,
      'service',
    );
  if (error instanceof ApiConnectionError) {
    const env = out.io.env;
    const proxied = proxySettings(env)
      ? `check the proxy (${PROXY_VARIABLES.filter((name) => env[name]?.trim()).join(', ')}; NO_PROXY bypasses it) and SVC_BASE_URL (or --base-url): the request went through the proxy, never directly`
      : "check SVC_BASE_URL (or --base-url): it must be the service's address, reachable from here";
    return fail('base-url', 'base URL', `${base} could not be reached (${message(error)}): ${proxied}`, 'service');
  }
  return undefined;
}
