// The one settings merge (src/cli/settings/settings.ts): for every declared setting, a flag wins over the environment, which
// wins over the config file, which wins over the default; settings every source adds to (context, SARIF map) join
// them with the higher source last; and a bad value's message names where it came from (the flag, the variable, or
// the config file key and the file). Then the same rules through the CLI in process, as a pipeline meets them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../src/index.js';
import type { OptionValues } from '../../src/cli/args.js';
import { type CiConfig, checkConfig } from '../../src/cli/settings/config.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_URLS,
  DEFAULT_TOLERANCE_SECONDS,
  describeSource,
  readSetting,
  SETTINGS,
  type SettingSpec,
} from '../../src/cli/settings/settings.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { hang, problem, serveEach } from '../support/loopback.js';

type Raw = string | boolean | string[];
/** Per setting: a value for each source it has (and what it resolves to), and bad values for the message checks. */
interface Sample {
  flag?: { raw: Raw; value: unknown };
  env?: { raw: string; value: unknown };
  config?: { data: Partial<CiConfig>; value: unknown };
  default: unknown;
  /** A flag or variable value its `read` refuses. */
  badText?: string | string[];
  /** A config file value `config.ts` refuses (checked through `checkConfig`, as a file is read). */
  badConfig?: unknown;
}

const FILE = '/repo/svc-a11y.config.json';
const scratch = mkdtempSync(join(tmpdir(), 'svc-a11y-settings-samples-'));
const urlsFile = join(scratch, 'urls.txt');
writeFileSync(urlsFile, '# pages\nhttps://a.example/\n\n https://a.example/b \n');
const noUrlsFile = join(scratch, 'none.txt');
writeFileSync(noUrlsFile, '# none yet\n');
const switchSample: Sample = { flag: { raw: true, value: true }, default: false };
const samples: Record<keyof typeof SETTINGS, Sample> = {
  apiKey: {
    flag: { raw: ' svc_flag ', value: 'svc_flag' },
    env: { raw: 'svc_env', value: 'svc_env' },
    default: undefined,
  },
  baseUrl: {
    flag: { raw: 'http://flag', value: 'http://flag' },
    env: { raw: 'http://env', value: 'http://env' },
    default: undefined,
  },
  rateLimit: { flag: { raw: '60', value: 60 }, env: { raw: '30', value: 30 }, default: undefined, badText: 'abc' },
  json: switchSample,
  noProgress: switchSample,
  help: switchSample,
  version: switchSample,
  quiet: switchSample,
  readOnly: switchSample,
  urls: {
    // The arguments are this setting's "flag" (see the pages' tests below); a config file gives `urls`.
    config: { data: { urls: ['https://b.example/'] }, value: ['https://b.example/'] },
    default: [],
    badConfig: ['ftp://b.example/'],
  },
  urlsFile: {
    flag: { raw: urlsFile, value: ['https://a.example/', 'https://a.example/b'] },
    default: [],
    badText: noUrlsFile,
  },
  sitemap: {
    flag: { raw: ['https://a.example/sitemap.xml'], value: ['https://a.example/sitemap.xml'] },
    // A file the config file names is relative to its folder.
    config: { data: { sitemap: ['/repo/s.xml'] }, value: ['/repo/s.xml'] },
    default: [],
    badConfig: [],
  },
  journeys: {
    flag: { raw: [' 0b5c4a3e-9f1d-4c6b-8e2a-7d1f0c9b8a76 '], value: ['0b5c4a3e-9f1d-4c6b-8e2a-7d1f0c9b8a76'] },
    config: {
      data: { journeys: ['0b5c4a3e-9f1d-4c6b-8e2a-7d1f0c9b8a76'] },
      value: ['0b5c4a3e-9f1d-4c6b-8e2a-7d1f0c9b8a76'],
    },
    default: [],
    badText: ['not-a-uuid'],
    badConfig: ['journey-1'],
  },
  journeyBaseline: {
    flag: { raw: 'journeys.json', value: 'journeys.json' },
    // A file the config file names is relative to its folder.
    config: { data: { journeyBaseline: '/repo/j.json' }, value: '/repo/j.json' },
    default: undefined,
    badConfig: 3,
  },
  changedSince: { flag: { raw: 'origin/main', value: 'origin/main' }, default: undefined },
  failOnByUrl: {
    config: {
      data: { failOnByUrl: [{ url: '/checkout', failOn: 'ANY_CRITICAL' }] },
      value: [{ url: '/checkout', failOn: 'ANY_CRITICAL' }],
    },
    default: [],
    badConfig: [{ url: '(', failOn: 'NONE' }],
  },
  redisUrl: {
    flag: { raw: 'redis://flag', value: 'redis://flag' },
    env: { raw: 'rediss://env', value: 'rediss://env' },
    default: undefined,
    badText: 'http://x',
  },
  timeout: {
    flag: { raw: '90s', value: 90_000 },
    config: { data: { timeout: 1500 }, value: 1500 },
    default: DEFAULT_WAIT_TIMEOUT_MS,
    badText: 'soon',
    badConfig: 'soon',
  },
  configFile: { flag: { raw: 'a.json', value: 'a.json' }, default: undefined },
  failOn: {
    flag: { raw: 'NONE', value: 'NONE' },
    config: { data: { failOn: 'ANY_CRITICAL' }, value: 'ANY_CRITICAL' },
    default: undefined,
    badText: 'SOME',
    badConfig: 'SOME',
  },
  setBaseline: {
    flag: { raw: true, value: true },
    config: { data: { setBaseline: false }, value: false },
    // Outside a recognised CI (no variables here); `auto` inside one (below).
    default: false,
    badConfig: 'yes',
  },
  comment: {
    flag: { raw: false, value: false },
    default: true,
  },
  defaultBranch: {
    flag: { raw: 'main', value: 'main' },
    env: { raw: ' trunk ', value: 'trunk' },
    config: { data: { defaultBranch: 'develop' }, value: 'develop' },
    default: undefined,
    badText: 'not a branch',
    badConfig: '',
  },
  format: {
    flag: { raw: 'sarif', value: 'sarif' },
    config: { data: { format: 'junit' }, value: 'junit' },
    default: 'text',
    badText: 'pdf',
    badConfig: 'pdf',
  },
  reports: {
    flag: {
      raw: ['junit=a.xml', 'junit=b.xml'],
      value: [
        ['junit', 'a.xml'],
        ['junit', 'b.xml'],
      ],
    },
    config: { data: { reports: { sarif: 'c.sarif' } }, value: [['sarif', 'c.sarif']] },
    default: [],
    badText: ['pdf=a.pdf'],
    badConfig: { pdf: 'a.pdf' },
  },
  maxUrls: {
    flag: { raw: '7', value: 7 },
    config: { data: { maxUrls: 9 }, value: 9 },
    default: DEFAULT_MAX_URLS,
    badText: '0',
    badConfig: 0,
  },
  urlsPerCheck: {
    flag: { raw: '5', value: 5 },
    env: { raw: '10', value: 10 },
    config: { data: { urlsPerCheck: 8 }, value: 8 },
    default: 20,
    badText: '21',
    badConfig: 21,
  },
  maxChecks: {
    flag: { raw: '3', value: 3 },
    env: { raw: '4', value: 4 },
    config: { data: { maxChecks: 6 }, value: 6 },
    default: undefined,
    badText: 'many',
    badConfig: 0,
  },
  recheck: {
    flag: { raw: '0', value: 0 },
    env: { raw: '2', value: 2 },
    config: { data: { recheck: 3 }, value: 3 },
    default: 1,
    badText: '6',
    badConfig: -1,
  },
  sarifCategory: {
    flag: { raw: ' a11y/shop ', value: 'a11y/shop' },
    config: { data: { sarifCategory: 'a11y/account' }, value: 'a11y/account' },
    default: undefined,
    badText: ['', 'a\u0007b', 'x'.repeat(201)],
    badConfig: 42,
  },
  sitemapExclude: {
    flag: { raw: '/a/', value: '/a/' },
    config: { data: { sitemapExclude: '/b/' }, value: '/b/' },
    default: undefined,
    badConfig: '',
  },
  sitemapFind: {
    flag: { raw: '^https://a', value: '^https://a' },
    config: { data: { sitemapFind: '^https://b' }, value: '^https://b' },
    default: undefined,
    badConfig: '(',
  },
  sitemapReplace: {
    flag: { raw: 'http://a', value: 'http://a' },
    config: { data: { sitemapReplace: 'http://b' }, value: 'http://b' },
    default: undefined,
    badConfig: 1,
  },
  suppressions: {
    flag: { raw: 'a.json', value: 'a.json' },
    config: { data: { suppressions: '/repo/b.json' }, value: '/repo/b.json' },
    default: undefined,
    badConfig: '',
  },
  context: {
    // Merged: the detected CI context, then the file's, then the flags'.
    flag: { raw: ['branch=from-flag'], value: { repository: 'from/config', branch: 'from-flag', team: 'a11y' } },
    config: {
      data: { context: { repository: 'from/config', team: 'a11y' } },
      value: { repository: 'from/config', team: 'a11y' },
    },
    default: {},
    badText: ['no-equals-sign'],
    badConfig: { team: 1 },
  },
  sourceMap: {
    // Merged: the file's entries, then the flags' (a later equal prefix wins).
    flag: {
      raw: ['/a=b.tsx'],
      value: [
        ['/a', 'a.tsx'],
        ['/a', 'b.tsx'],
      ],
    },
    config: { data: { sourceMap: { '/a': 'a.tsx' } }, value: [['/a', 'a.tsx']] },
    default: [],
    badText: ['no-equals-sign'],
    badConfig: ['a.tsx'],
  },
  shard: {
    flag: { raw: '2/4', value: { index: 2, total: 4 } },
    env: { raw: '1/2', value: { index: 1, total: 2 } },
    config: { data: { shard: '3/3' }, value: { index: 3, total: 3 } },
    default: undefined,
    badText: '5/4',
    badConfig: 2,
  },
  sourceRoot: {
    flag: { raw: 'web', value: 'web' },
    env: { raw: 'site', value: 'site' },
    // config.ts resolves the file's value against its folder; the setting takes it as it is.
    config: { data: { sourceRoot: '/repo/web' }, value: '/repo/web' },
    default: undefined,
    badConfig: '',
  },
  basePath: {
    flag: { raw: '/docs', value: '/docs' },
    config: { data: { basePath: '/d' }, value: '/d' },
    default: undefined,
    badText: 'docs',
    badConfig: 'docs',
  },
  webhookSecrets: { flag: { raw: ['s1', 's2'], value: ['s1', 's2'] }, env: { raw: 's3', value: ['s3'] }, default: [] },
  toleranceSeconds: { flag: { raw: '60', value: 60 }, default: DEFAULT_TOLERANCE_SECONDS, badText: '1.5' },
  maxBodyBytes: { flag: { raw: '10', value: 10 }, default: DEFAULT_MAX_BODY_BYTES, badText: '0' },
  port: { flag: { raw: '8080', value: 8080 }, default: 0, badText: '70000' },
  logLevel: {
    flag: { raw: true, value: 'debug' },
    env: { raw: ' Info ', value: 'info' },
    default: 'off',
    badText: 'loud',
  },
  trendLimit: { flag: { raw: '5', value: 5 }, default: undefined, badText: 'five' },
};

const settings = Object.entries(SETTINGS) as Array<[keyof typeof SETTINGS, SettingSpec<unknown>]>;
const config = (data: Partial<CiConfig>): CiConfig => ({ file: FILE, ...data });
const refusal = (run: () => unknown): UsageError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a refusal');
};

describe('the settings merge', () => {
  it('every setting has a sample here, and each sample covers exactly the sources its setting declares', () => {
    expect(Object.keys(samples).sort()).toEqual(Object.keys(SETTINGS).sort());
    for (const [name, spec] of settings) {
      const sample = samples[name];
      expect([name, sample.flag !== undefined]).toEqual([name, spec.flag !== undefined]);
      expect([name, sample.env !== undefined]).toEqual([name, spec.env !== undefined]);
      expect([name, sample.config !== undefined]).toEqual([name, spec.config !== undefined]);
    }
  });

  describe.each(settings.filter(([, spec]) => spec.merge === undefined))('%s', (name, spec) => {
    const s = samples[name];
    const all = {
      values: (spec.flag && s.flag ? { [spec.flag]: s.flag.raw } : {}) as OptionValues,
      env: spec.env && s.env ? { [spec.env]: s.env.raw } : {},
      config: s.config ? config(s.config.data) : undefined,
    };

    if (spec.flag)
      it('a flag wins over every other source', () => {
        expect(readSetting(spec, all)).toEqual({
          value: s.flag!.value,
          source: { kind: 'flag', flag: `--${spec.flag}` },
        });
      });

    if (spec.env)
      it('the environment wins over the config file and the default', () => {
        expect(readSetting(spec, { ...all, values: {} })).toEqual({
          value: s.env!.value,
          source: { kind: 'env', variable: spec.env },
        });
        // A variable set to blanks is not set.
        expect(readSetting(spec, { ...all, values: {}, env: { [spec.env!]: '  ' } }).source.kind).not.toBe('env');
      });

    if (spec.config)
      it('the config file wins over the default', () => {
        expect(readSetting(spec, { ...all, values: {}, env: {} })).toEqual({
          value: s.config!.value,
          source: { kind: 'config', key: spec.config!.key, file: FILE },
        });
      });

    it('the default applies when no source gives a value', () => {
      expect(readSetting(spec, { values: {}, env: {}, config: config({}) })).toEqual({
        value: s.default,
        source: { kind: 'default' },
      });
    });

    if (s.badText !== undefined && spec.flag)
      it("a bad flag value's message names the flag", () => {
        const error = refusal(() => readSetting(spec, { values: { [spec.flag!]: s.badText! }, env: {} }));
        expect(error.message).toMatch(new RegExp(`^--${spec.flag}\\b`));
        if (spec.env) expect(error.message).not.toContain(spec.env);
      });

    if (s.badText !== undefined && spec.env)
      it("a bad variable's message names the variable, not the flag", () => {
        const error = refusal(() => readSetting(spec, { values: {}, env: { [spec.env!]: s.badText as string } }));
        expect(error.message).toMatch(new RegExp(`^${spec.env}\\b`));
        expect(error.message).not.toContain(`--${spec.flag}`);
      });

    if (s.badConfig !== undefined)
      it("a bad config value's message names the key and the file", () => {
        const key = spec.config!.key;
        const error = refusal(() => checkConfig({ [key]: s.badConfig }, FILE));
        expect(error.message).toMatch(new RegExp(`^config file ${FILE}: ${key}\\b`));
      });
  });

  describe.each(settings.filter(([, spec]) => spec.merge !== undefined))(
    '%s (every source adds to it)',
    (name, spec) => {
      const s = samples[name];
      const fromConfig = config(s.config!.data);

      it('joins the default, the config file and the flags, the flag last (its source named)', () => {
        expect(readSetting(spec, { values: { [spec.flag!]: s.flag!.raw }, env: {}, config: fromConfig })).toEqual({
          value: s.flag!.value,
          source: { kind: 'flag', flag: `--${spec.flag}` },
        });
        expect(readSetting(spec, { values: {}, env: {}, config: fromConfig })).toEqual({
          value: s.config!.value,
          source: { kind: 'config', key: spec.config!.key, file: FILE },
        });
        expect(readSetting(spec, { values: {}, env: {} })).toEqual({ value: s.default, source: { kind: 'default' } });
      });

      it("a bad flag value's message names the flag; a bad config value's the key and the file", () => {
        expect(refusal(() => readSetting(spec, { values: { [spec.flag!]: s.badText! }, env: {} })).message).toMatch(
          new RegExp(`^--${spec.flag}\\b`),
        );
        expect(refusal(() => checkConfig({ [spec.config!.key]: s.badConfig }, FILE)).message).toMatch(
          new RegExp(`^config file ${FILE}: ${spec.config!.key}\\b`),
        );
      });
    },
  );

  it("context: the CI environment's values are the default, below the config file's and the flags'", () => {
    const env = { GITHUB_REPOSITORY: 'from/env', GITHUB_REF_NAME: 'main', GITHUB_ACTIONS: 'true' };
    const detected = readSetting(SETTINGS.context, { values: {}, env }).value;
    expect(detected).toMatchObject({ repository: 'from/env', branch: 'main' });
    const merged = readSetting(SETTINGS.context, {
      values: { context: ['branch=from-flag'] },
      env,
      config: config({ context: { repository: 'from/config' } }),
    }).value;
    expect(merged).toMatchObject({ repository: 'from/config', branch: 'from-flag' });
  });

  it('describeSource says where a value came from', () => {
    expect(describeSource({ kind: 'flag', flag: '--timeout' })).toBe('--timeout');
    expect(describeSource({ kind: 'env', variable: 'SVC_RATE_LIMIT' })).toBe('SVC_RATE_LIMIT');
    expect(describeSource({ kind: 'config', key: 'timeout', file: FILE })).toBe(`timeout in ${FILE}`);
    expect(describeSource({ kind: 'default' })).toBe('the default');
  });
});

describe('the settings merge, through the CLI in process', () => {
  const serve = serveEach();
  const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-settings-'));
  afterAll(() => execFileSync('rm', ['-rf', dir, scratch]));
  const configFile = (name: string, data: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(data));
    return file;
  };
  const key = 'svc_settings_test_key';
  // The service refuses the check: the run ends (exit 3) right after the one request that carries the settings.
  const refusing = () => serve(problem(400, 'VALIDATION_ERROR'));
  const sent = (api: { requests: Array<{ body: string }> }) =>
    JSON.parse(api.requests[0]!.body) as Record<string, unknown>;

  it('a single value: --fail-on over failOn in the config file over the service default (not sent)', async () => {
    const file = configFile('fail-on.json', { urls: ['https://a.example/'], failOn: 'ANY_CRITICAL' });
    const runs = [
      [['--config', file, '--fail-on', 'NONE'], 'NONE'],
      [['--config', file], 'ANY_CRITICAL'],
      [['https://a.example/', '--config', configFile('empty.json', {})], undefined],
    ] as const;
    for (const [args, expected] of runs) {
      const api = await refusing();
      const r = await runCliLikeBinary(['ci', ...args, '--no-progress'], {
        env: { SVC_API_KEY: key, SVC_BASE_URL: api.url },
      });
      expect(r.code).toBe(3);
      expect(sent(api).failOn).toBe(expected);
    }
  });

  it('flag and variable: --base-url over SVC_BASE_URL, SVC_BASE_URL alone', async () => {
    const byFlag = await refusing();
    const byEnv = await refusing();
    const env = { SVC_API_KEY: key, SVC_BASE_URL: byEnv.url };
    expect((await runCliLikeBinary(['sites', '--base-url', byFlag.url], { env })).code).toBe(3);
    expect([byFlag.requests.length, byEnv.requests.length]).toEqual([1, 0]);
    expect((await runCliLikeBinary(['sites'], { env })).code).toBe(3);
    expect([byFlag.requests.length, byEnv.requests.length]).toEqual([1, 1]);
  });

  it('a merged map: --context over the config file over the CI environment, key by key', async () => {
    const api = await refusing();
    const file = configFile('context.json', {
      urls: ['https://a.example/'],
      context: { repository: 'from/config', team: 'a11y' },
    });
    const r = await runCliLikeBinary(['ci', '--config', file, '--context', 'branch=from-flag'], {
      env: {
        SVC_API_KEY: key,
        SVC_BASE_URL: api.url,
        GITHUB_REPOSITORY: 'from/env',
        GITHUB_REF_NAME: 'main',
        CI: 'true',
      },
    });
    expect(r.code).toBe(3);
    expect(sent(api).context).toMatchObject({ repository: 'from/config', team: 'a11y', branch: 'from-flag' });
  });

  it('a bad value names its source: the flag, the variable, or the config file (or says it is the default)', async () => {
    const env = { SVC_API_KEY: key, SVC_BASE_URL: 'http://127.0.0.1:9' };
    const fromEnv = await runCliLikeBinary(['sites'], { env: { ...env, SVC_RATE_LIMIT: 'fast' } });
    expect([fromEnv.code, fromEnv.stderr]).toEqual([
      2,
      expect.stringContaining('error: SVC_RATE_LIMIT must be a positive number of requests per minute'),
    ]);
    const fromFlag = await runCliLikeBinary(['sites', '--rate-limit', 'fast'], {
      env: { ...env, SVC_RATE_LIMIT: '60' },
    });
    expect([fromFlag.code, fromFlag.stderr]).toEqual([
      2,
      expect.stringContaining('error: --rate-limit must be a positive number of requests per minute'),
    ]);
    // A flag's good value is used and the variable's bad one never read.
    const good = await runCliLikeBinary(['sites', '--rate-limit', '60'], { env: { ...env, SVC_RATE_LIMIT: 'fast' } });
    expect(good.code).toBe(3);

    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, Array.from({ length: DEFAULT_MAX_URLS + 1 }, (_, i) => `https://a.example/${i}`).join('\n'));
    const max = configFile('max.json', { maxUrls: 2 });
    const bounds = [
      [['--max-urls', '3'], `${DEFAULT_MAX_URLS + 1} URLs to check, more than --max-urls 3; raise`],
      [['--config', max], `${DEFAULT_MAX_URLS + 1} URLs to check, more than --max-urls 2 (from ${max}); raise`],
      [[], `${DEFAULT_MAX_URLS + 1} URLs to check, more than --max-urls ${DEFAULT_MAX_URLS} (the default); raise`],
    ] as const;
    for (const [args, message] of bounds) {
      const r = await runCliLikeBinary(['ci', '--urls-file', urls, ...args], { env, cwd: dir });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(message)]);
    }

    const key2 = await runCliLikeBinary(['sites', '--api-key', 'not-a-svc-key'], { env });
    expect(key2.stderr).toContain(
      "warning: the API key does not start with svc_, as the service's keys do; check --api-key",
    );
    const key3 = await runCliLikeBinary(['sites'], { env: { ...env, SVC_API_KEY: 'not-a-svc-key' } });
    expect(key3.stderr).toContain(
      "warning: the API key does not start with svc_, as the service's keys do; check SVC_API_KEY",
    );
  });

  it("the wait limit names its source: --timeout, or the config file's timeout", async () => {
    const file = configFile('timeout.json', { urls: ['https://a.example/'], timeout: '300ms' });
    for (const [args, source] of [
      [['--timeout', '200ms'], '200 ms (--timeout)'],
      [[], `300 ms (timeout in ${file})`],
    ] as const) {
      const api = await serve(hang);
      const r = await runCliLikeBinary(['ci', '--config', file, ...args, '--no-progress'], {
        env: { SVC_API_KEY: key, SVC_BASE_URL: api.url },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`wait ended (${source}) before the service answered`);
    }
  });
});

describe('a renamed setting keeps its older name', () => {
  const spec = SETTINGS.sourceMap;

  it('--source-map is read as --sarif-map was, each message naming the flag as given; both at once are refused', () => {
    expect(readSetting(spec, { values: { 'sarif-map': ['/a=b.tsx'] }, env: {} })).toEqual({
      value: [['/a', 'b.tsx']],
      source: { kind: 'flag', flag: '--sarif-map' },
    });
    expect(readSetting(spec, { values: { 'source-map': ['/a=b.tsx'] }, env: {} }).source).toEqual({
      kind: 'flag',
      flag: '--source-map',
    });
    expect(refusal(() => readSetting(spec, { values: { 'sarif-map': ['nothing'] }, env: {} })).message).toMatch(
      /^--sarif-map\b/,
    );
    expect(
      refusal(() => readSetting(spec, { values: { 'sarif-map': ['/a=b'], 'source-map': ['/c=d'] }, env: {} })).message,
    ).toBe('--source-map and --sarif-map are one setting (--sarif-map is its older name): give one');
  });

  it('the config file key sarifMap is read as sourceMap; a file holding both is refused, naming them', () => {
    expect(checkConfig({ sarifMap: { '/a': 'a.tsx' } }, FILE).sourceMap).toEqual({ '/a': 'a.tsx' });
    expect(refusal(() => checkConfig({ sarifMap: 'sometimes' }, FILE)).message).toMatch(
      new RegExp(`^config file ${FILE}: sarifMap must be "auto", "none"`),
    );
    expect(refusal(() => checkConfig({ sarifMap: 'auto', sourceMap: 'none' }, FILE)).message).toBe(
      `config file ${FILE}: sarifMap and sourceMap are one key (sarifMap is its older name): keep sourceMap`,
    );
  });
});
