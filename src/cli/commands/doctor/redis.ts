// doctor's lines about the Redis of --redis-url / SVC_REDIS_URL: reached as the CLI's shared rate budget reaches it
// (RedisRateLimitStore, the store context.ts builds, within its bound of 1 s), then its maxmemory-policy, read the
// way the webhook replay store reads it (CONFIG GET, else INFO memory): with one probe of the store, on a key of
// doctor's own kept 1 ms. Any policy but noeviction can evict the budget's keys and a replay store's entries.
import { RedisRateLimitStore, RedisReplayStore, type ReplayStoreWarning } from '../../../redis/index.js';
import type { OptionValues } from '../../args.js';
import { UsageError } from '../../exit-codes.js';
import { withoutUrlCredentials } from '../../io/safe-text.js';
import { describeSource, type Env, readSetting, SETTINGS } from '../../settings/settings.js';
import { type CheckLine, fail, info, ok } from './lines.js';

// The id verifyWebhook would pass (`signed:` and 64 hex digits), under a prefix no receiver uses.
const PROBE_ID = `signed:${'0'.repeat(64)}`;
const PROBE_PREFIX = 'svc-a11y:doctor:';

/** The Redis lines: not set, or reachable and its eviction policy. */
export async function redisLines(values: OptionValues, env: Env): Promise<CheckLine[]> {
  let setting: ReturnType<typeof readSetting<string | undefined>>;
  try {
    setting = readSetting(SETTINGS.redisUrl, { values, env });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return [fail('redis', 'Redis', error.message, 'setting')];
  }
  const url = setting.value;
  if (url === undefined)
    return [info('redis', 'Redis', 'not set (--redis-url / SVC_REDIS_URL): each process keeps its own rate budget')];
  const source = describeSource(setting.source);
  const shown = `${withoutUrlCredentials(url)} (${source})`;
  const store = new RedisRateLimitStore({ url });
  try {
    await store.connect();
  } catch (error) {
    // The optional peer the stores connect with: missing, nothing was tried.
    if (/needs the `redis` package/.test(messageOf(error)))
      return [
        fail(
          'redis',
          'Redis',
          `${shown}: the redis package is not installed: npm install redis (or unset ${source})`,
          'setting',
        ),
      ];
    return [
      fail(
        'redis',
        'Redis',
        `${shown} could not be reached (${messageOf(error)}): check ${source}; the commands would fall back to each process's own budget, with a warning`,
        'service',
      ),
    ];
  } finally {
    await store.close();
  }
  return [ok('redis', 'Redis', `${shown} answers`), await policyLine(url, source)];
}

async function policyLine(url: string, source: string): Promise<CheckLine> {
  const id = 'redis-policy';
  const label = 'Redis maxmemory-policy';
  const warnings: ReplayStoreWarning[] = [];
  // clockSkewMs 0 and an expiry of now: the probe's key lives 1 ms (the least Redis takes).
  const store = new RedisReplayStore({
    url,
    keyPrefix: PROBE_PREFIX,
    clockSkewMs: 0,
    onWarning: (warning) => warnings.push(warning),
  });
  try {
    await store.checkAndRemember(PROBE_ID, Date.now());
  } catch (error) {
    // WebhookVerificationError's reason: the store's own word for what it met.
    const code = (error as { reason?: unknown } | undefined)?.reason;
    if (code === 'REPLAY_STORE_EVICTION') {
      const policy = /maxmemory-policy is ([\w-]+)/.exec(messageOf(error))?.[1] ?? 'not noeviction';
      return fail(
        id,
        label,
        `${policy}: it can evict the shared rate budget's keys (jobs sharing the key then exceed its rate and meet 429) and a webhook replay store's entries (RedisReplayStore refuses deliveries under it): set maxmemory-policy noeviction`,
        'service',
      );
    }
    if (code === 'REPLAY_STORE_FULL')
      return fail(
        id,
        label,
        'Redis is out of memory (maxmemory): nothing can be written to it; raise maxmemory',
        'service',
      );
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    return fail(
      id,
      label,
      `could not be read: Redis stopped answering (${messageOf(cause ?? error)}); check ${source}`,
      'service',
    );
  } finally {
    await store.close();
  }
  if (warnings.some((warning) => warning.code === 'REPLAY_STORE_EVICTION_UNCHECKED'))
    return info(
      id,
      label,
      "could not be read (CONFIG GET and INFO memory were refused): make sure it is noeviction, or the shared budget's keys may be evicted",
    );
  return ok(id, label, 'noeviction: nothing the shared rate budget (or a webhook replay store) keeps is evicted');
}

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
