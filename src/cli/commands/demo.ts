// `svc-a11y demo`: the main job with no account. Starts the local simulator, runs a CI check against it end to
// end (progress, findings, verdict), then stops it. With SVC_BASE_URL and SVC_API_KEY set, the same command
// runs against the real service instead.
import { A11yClient } from '../../index.js';
import { type Command, type CommandContext, version } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { type CiOptions, ciOptions, removingUnusedFolders } from '../gate/options.js';
import { readSetting, SETTINGS } from '../settings/settings.js';
import { runCheck } from '../gate/ci.js';
import { optionsOf } from '../settings/flags.js';

async function pickUrls(client: A11yClient, given: string[]): Promise<string[]> {
  if (given.length) return given;
  // The first verified site: CI checks need one (an unverified site gives 409 DOMAIN_NOT_VERIFIED).
  const site = (await client.sites.list()).find((s) => s.verified && s.rootUrl);
  if (!site?.rootUrl)
    throw new UsageError('no verified site with a root URL to check; pass URLs: svc-a11y demo <url…>', 'demo');
  return [site.rootUrl, new URL('checkout', site.rootUrl).href];
}

async function runDemo(ctx: CommandContext): Promise<number> {
  // Every flag is checked before anything starts or is sent; a pipeline's config file is not the demo's.
  const options = ciOptions(ctx, { readConfig: false });
  return removingUnusedFolders(options, () => demoWith(ctx, options));
}

async function demoWith(ctx: CommandContext, options: CiOptions): Promise<number> {
  const inputs = { values: ctx.values, env: ctx.out.io.env };
  const real =
    readSetting(SETTINGS.baseUrl, inputs).value !== undefined &&
    readSetting(SETTINGS.apiKey, inputs).value !== undefined;
  if (real) {
    // The command context's client: a Redis store opened by --redis-url is closed when the command ends.
    const client = ctx.client();
    return runCheck(ctx, client, { ...options, urls: await pickUrls(client, options.urls) });
  }
  // Loaded only here: no other command needs the simulator.
  const { startSimulator } = await import('../../testing/index.js');
  const sim = await startSimulator({ durations: { ciCheck: 2500 } });
  try {
    ctx.out.err(
      `svc-a11y ${version} demo: a local simulator of the service is running at ${sim.url} (no account needed).`,
    );
    ctx.out.err('Set SVC_BASE_URL and SVC_API_KEY to run the same command against the real service.\n');
    const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
    const code = await runCheck(ctx, client, { ...options, urls: await pickUrls(client, options.urls) });
    // The report's links point at the simulator, which stops with the demo.
    ctx.out.err(`\n(The Details link above is the local simulator's, ${sim.url}: it is gone once the demo ends.)`);
    // The demo itself succeeded whatever the verdict; say what `ci` would have exited with.
    if (code === 1 || code === 4)
      ctx.out.err(
        `\n(svc-a11y ci would exit ${code} for this result: ${code === 1 ? 'verdict FAIL' : 'a page or the check could not run'}.)`,
      );
    return code === 1 || code === 4 ? 0 : code;
  } finally {
    await sim.stop();
  }
}

/** `svc-a11y demo`. */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run a CI check end to end against a local simulator (no account needed)',
  args: { min: 0, max: 20, names: '[url…]' },
  // The settings of `ci` a demo takes (--fail-on, --format, --report) say so in their declarations.
  options: optionsOf('demo'),
  usage: `svc-a11y demo [url…] [--fail-on …] [--format …] [--report FORMAT=FILE]

  Starts the local simulator, runs a CI check of its verified site's pages with progress, findings and
  verdict, then stops it. With SVC_BASE_URL and SVC_API_KEY (or --base-url and --api-key) it runs against
  the real service instead, on the URLs given or on your first verified site.`,
  run: runDemo,
};
