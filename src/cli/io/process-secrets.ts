// Every secret this process holds, found once where the run starts, so that one redaction (`redact`, in every
// spelling and clipped form) keeps each of them out of every line, report and file: the API key, webhook secrets,
// the Redis URL's and the proxies' credentials, and the CI's own tokens (GitHub's, GitLab's, …), which the
// service or a page may echo back. The runner's own masking only hides a token spelled exactly as it is.
import { proxySecrets, proxySettings } from './proxy.js';
import { parseUrl } from './parse-url.js';

/** Variables that hold a secret whatever their name says. */
const SECRET_VARIABLES = [
  'SVC_API_KEY',
  'SVC_WEBHOOK_SECRET',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'INPUT_API-KEY',
  'INPUT_GITHUB-TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'CI_JOB_TOKEN',
  'CI_JOB_JWT',
  'GITLAB_TOKEN',
  'SYSTEM_ACCESSTOKEN',
  'BUILDKITE_AGENT_ACCESS_TOKEN',
  'CIRCLE_TOKEN',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
];

// Other variables named as a secret: a name ending in TOKEN, SECRET, PASSWORD, API_KEY, ACCESS_KEY, PRIVATE_KEY or
// CREDENTIALS (with `_` or `-`, any case). The end of the name only: `SSH_AUTH_SOCK` or `KEYBOARD` hold no secret.
const SECRET_NAME =
  /(?:^|[_-])(?:[A-Z]*TOKEN|SECRET|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?)$/i;
// A value taken from a variable found by its name alone must look like a secret: words such as "true" or "none"
// would otherwise be redacted from every report.
const LOOKS_SECRET = /^\S{8,}$/;
// Variables that hold a URL whose password is a secret.
const URL_VARIABLES = ['SVC_REDIS_URL', 'INPUT_REDIS-URL'];

/**
 * The secrets of this run: the values of `SECRET_VARIABLES` (4 characters or more), of other variables named as a
 * secret (8 characters or more, no blanks), the passwords of the Redis URL and of the proxies, and the values of
 * the flags that carry one (`--api-key`, `--secret`, `--redis-url`'s password). Each once.
 * @example processSecrets({ SVC_API_KEY: 'svc_live_abc123', GITHUB_TOKEN: 'ghs_…' }) // ['svc_live_abc123', 'ghs_…']
 */
export function processSecrets(
  env: Record<string, string | undefined>,
  flags: { apiKey?: unknown; webhookSecrets?: unknown; redisUrl?: unknown } = {},
): string[] {
  const found: string[] = [];
  const add = (value: unknown, min = 4) => {
    if (typeof value === 'string' && value.trim().length >= min) found.push(value.trim());
  };
  for (const name of SECRET_VARIABLES) add(env[name]);
  for (const [name, value] of Object.entries(env))
    if (!SECRET_VARIABLES.includes(name) && SECRET_NAME.test(name) && LOOKS_SECRET.test(value?.trim() ?? ''))
      add(value, 8);
  for (const url of [...URL_VARIABLES.map((name) => env[name]), flags.redisUrl]) add(urlPassword(url));
  const proxy = proxySettings(env);
  if (proxy) for (const secret of proxySecrets(proxy)) add(secret);
  add(flags.apiKey);
  for (const secret of Array.isArray(flags.webhookSecrets) ? flags.webhookSecrets : [flags.webhookSecrets]) add(secret);
  return [...new Set(found)];
}

/**
 * The password of a URL's `user:password@` (percent-decoded), or undefined.
 * @example urlPassword('redis://:s3cret-pass@redis.internal:6379') // 's3cret-pass'
 */
export function urlPassword(url: unknown): string | undefined {
  const parsed = typeof url === 'string' ? parseUrl(url.trim()) : undefined;
  if (!parsed) return undefined;
  const { password } = parsed;
  try {
    return decodeURIComponent(password) || undefined;
  } catch {
    return password || undefined;
  }
}
