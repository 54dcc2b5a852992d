// Microsoft's SARIF validator (npm `@microsoft/sarif-multitool`, a self-contained .NET binary per platform) with
// GitHub's ingestion rules: `Sarif.Multitool validate --rule-kind "Sarif;Gh"`. The package's `bin.js` runs the
// binary through a shell, where `;` in "Sarif;Gh" ends the command, so the platform binary is run directly.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One finding of the validator. */
interface MultitoolFinding {
  /** File name (no directory) of the SARIF log the finding is about. */
  file: string;
  /** Validator rule, e.g. `GH2012` or `SARIF1002`. */
  ruleId: string;
  /** `error`, `warning` or `note` (a finding without level takes its rule's default, else `warning`). */
  level: string;
  /** The validator's message, placeholders filled in. */
  text: string;
}

/** What one run of the validator reported. */
export interface MultitoolReport {
  findings: MultitoolFinding[];
  /** Files the validator says it scanned (from its console summary). */
  scanned: number;
  /** Tool notifications (configuration or parse problems), as text: empty when the run itself went well. */
  problems: string[];
}

const require = createRequire(import.meta.url);

/** Absolute path of the platform binary (the `-linux`, `-darwin` or `-win32` package exports it). */
function multitoolPath(): string {
  const name = `@microsoft/sarif-multitool-${process.platform}`;
  const path = require(name) as string;
  // npm runs the package's `chmod u+x` postinstall only when install scripts are allowed; the tarball mode is 0744.
  try {
    accessSync(path, constants.X_OK);
  } catch (cause) {
    throw new Error(`${path} is not executable (${name}'s postinstall did not run?): chmod u+x it`, { cause });
  }
  return path;
}

// GitHub's rules GH1001-GH1007 are off by default in the validator (`EnabledByDefault => false`); `Error` turns
// them on. The one rule turned off, SARIF2006 (URIs should be reachable), sends an HTTP GET to every help link:
// GitHub checks nothing of the kind at ingestion, and it made a 500-result log take 12 s instead of 1.5 s.
const RULE_STATES: Record<string, 'Error' | 'Disabled'> = {
  'GH1001.ProvideRequiredLocationProperties': 'Error',
  'GH1002.InlineThreadFlowLocations': 'Error',
  'GH1003.ProvideRequiredRegionProperties': 'Error',
  'GH1004.ReviewArraysThatExceedConfigurableDefaults': 'Error',
  'GH1005.LocationsMustBeRelativeUrisOrFilePaths': 'Error',
  'GH1006.ProvideCheckoutPath': 'Error',
  'GH1007.ProvideFullyFormattedMessageStrings': 'Error',
  'SARIF2006.UrisShouldBeReachable': 'Disabled',
};

const configXml = (): string =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<Properties>',
    ...Object.entries(RULE_STATES).map(
      ([rule, state]) =>
        `  <Properties Key="${rule}.Options"><Property Key="RuleEnabled" Value="${state}" Type="Driver.RuleEnabledState" /></Properties>`,
    ),
    '</Properties>',
    '',
  ].join('\n');

// SARIF §3.11.5: `{n}` is argument n, `{{` and `}}` are literal braces.
const format = (template: string, args: string[] = []): string =>
  template.replace(/\{\{|\}\}|\{(\d+)\}/g, (m, n: string | undefined) =>
    n === undefined ? m[0]! : (args[Number(n)] ?? m),
  );

interface Notification {
  level?: string;
  message?: { text?: string };
  descriptor?: { id?: string };
}

interface OutputLog {
  runs: Array<{
    tool: {
      driver: {
        rules?: Array<{
          id: string;
          defaultConfiguration?: { level?: string } | null;
          messageStrings?: Record<string, { text: string }>;
        }>;
      };
    };
    invocations?: Array<{
      executionSuccessful?: boolean;
      toolExecutionNotifications?: Notification[];
      toolConfigurationNotifications?: Notification[];
    }>;
    results?: Array<{
      ruleId: string;
      ruleIndex?: number;
      level?: string;
      message: { text?: string; id?: string; arguments?: string[] };
      locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }>;
    }>;
  }>;
}

/**
 * Validates SARIF files in one run of the validator (it starts in about 0.5 s, so one run for all files) with the
 * schema and GitHub's rules, and reads its own SARIF output (`--output`) rather than its console text. The exit
 * code says nothing about findings (it is 0 with errors), so callers assert on `findings`.
 */
export async function runMultitool(files: string[], workDir: string): Promise<MultitoolReport> {
  const config = join(workDir, 'multitool-config.xml');
  const output = join(workDir, 'multitool-result.sarif');
  await writeFile(config, configXml());
  // Files first: `--log` takes a list and would swallow the file names that follow it.
  const args = [
    'validate',
    ...files,
    '--rule-kind',
    'Sarif;Gh',
    '--config',
    config,
    '--output',
    output,
    '--log',
    'ForceOverwrite',
    // One thread: the files are few, and more threads only added CPU (measured with the next setting: a run over
    // the validator test's eleven logs 13.3 → 9.6 CPU-s).
    '--threads',
    '1',
  ];
  // A clean environment: invariant globalization, so the binary needs no libicu (it looks for one otherwise), and
  // HOME plus the bundle extraction directory in the work directory, so nothing is written outside it.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: workDir,
    DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1',
    DOTNET_BUNDLE_EXTRACT_BASE_DIR: workDir,
    DOTNET_CLI_TELEMETRY_OPTOUT: '1',
    // No profile-guided recompilation: a run lasts seconds, too short for the .NET runtime's instrumented tier to pay
    // back what it costs (about a quarter of the run's CPU).
    DOTNET_TieredPGO: '0',
  };
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      multitoolPath(),
      args,
      { env, cwd: workDir, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        // A non-zero exit is a tool failure (bad option, crash), never a finding.
        if (error) reject(new Error(`Sarif.Multitool failed: ${error.message}\n${out}\n${err}`));
        else resolve(out);
      },
    );
  });
  const log = JSON.parse(await readFile(output, 'utf8')) as OutputLog;
  const run = log.runs[0]!;
  const rules = run.tool.driver.rules ?? [];
  const invocation = run.invocations?.[0];
  // Every notification is a problem, except the validator's own note that the rules turned off above are off.
  const disabled = Object.keys(RULE_STATES)
    .filter((rule) => RULE_STATES[rule] === 'Disabled')
    .map((rule) => `'${rule.split('.')[0]}'`);
  const expected = (n: Notification): boolean =>
    n.descriptor?.id === 'WRN999.RuleExplicitlyDisabled' && disabled.some((rule) => n.message?.text?.includes(rule));
  const problems = [
    ...(invocation?.toolExecutionNotifications ?? []),
    ...(invocation?.toolConfigurationNotifications ?? []),
  ]
    .filter((n) => !expected(n))
    .map((n) => n.message?.text ?? JSON.stringify(n));
  if (invocation?.executionSuccessful === false) problems.push('executionSuccessful is false');
  const findings = (run.results ?? []).map((r): MultitoolFinding => {
    const rule = rules[r.ruleIndex ?? -1] ?? rules.find((x) => x.id === r.ruleId);
    const template = r.message.text ?? rule?.messageStrings?.[r.message.id ?? '']?.text ?? r.message.id ?? '';
    const uri = r.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
    return {
      file: uri ? basename(uri.startsWith('file:') ? fileURLToPath(uri) : uri) : '',
      ruleId: r.ruleId,
      level: r.level ?? rule?.defaultConfiguration?.level ?? 'warning',
      text: format(template, r.message.arguments),
    };
  });
  const scanned = Number(/Done\. (\d+) files? scanned/.exec(stdout)?.[1] ?? Number.NaN);
  return { findings, scanned, problems };
}
