// `svc-a11y simulator`: the local simulator of the service in the foreground, so a user can rehearse a
// pipeline offline: it prints its URL, keys, the verified site and a ready-to-paste `ci` command, and stops
// cleanly on Ctrl-C or SIGTERM.
import { type Command, version } from '../context.js';
import { SETTINGS, settingOf } from '../settings/settings.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';

/** `svc-a11y simulator`. */
export const simulatorCommand: Command = {
  name: 'simulator',
  summary: 'Run the local simulator of the service in the foreground (rehearse a pipeline offline)',
  args: { min: 0, max: 0, names: '' },
  options: optionsOf('simulator'),
  usage: `svc-a11y simulator [--port <n>]

${optionsHelp('simulator', 13)}

  Starts a stateful simulator of the Developer API v1 on 127.0.0.1 and prints its URL, API keys, the seeded
  verified site and a ci command to paste into another terminal. Steer outcomes through the URL: a path with
  /unreachable, /timeout or /error gives that page status, /clean no findings, ?regress=N N new critical
  findings. Stops on Ctrl-C (SIGINT) or SIGTERM.`,
  async run(ctx) {
    const port = settingOf(ctx, SETTINGS.port).value;
    // Loaded only here: no other command but `demo` needs the simulator.
    const { startSimulator } = await import('../../testing/index.js');
    const sim = await startSimulator({ port });
    const stopped = new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
    });
    const site = 'https://shop.example.com/';
    ctx.out.out(
      [
        `svc-a11y ${version} simulator listening on ${sim.url}`,
        '',
        `  SVC_BASE_URL=${sim.url}`,
        `  API key (all scopes, Pro plan): ${sim.keys.full}`,
        `  API key without ci:check:       ${sim.keys.noCi}`,
        `  API key on the Free plan:       ${sim.keys.freePlan}`,
        `  verified site: ${site} (id ${sim.ids.verifiedSite})`,
        '',
        'Rehearse a pipeline in another terminal: first save a baseline, then gate on new findings.',
        `  export SVC_BASE_URL=${sim.url} SVC_API_KEY=${sim.keys.full}`,
        `  npx svc-a11y ci ${site} ${site}checkout --set-baseline --fail-on NONE`,
        `  npx svc-a11y ci ${site} ${site}checkout --report junit=a11y.xml --report sarif=a11y.sarif`,
        `  (add ?regress=2 to a URL for a FAIL, or a path with /unreachable for an incomplete check)`,
        '',
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    const signal = await stopped;
    await sim.stop();
    ctx.out.err(`simulator stopped (${signal})`);
    return 0;
  },
};
