// The journeys' baseline (`--journey-baseline FILE`): scans carry no `isNew`, so the gate keeps its own record of the
// journey findings a baseline run saw. A finding's fingerprint is ours and stable from run to run: a hash of its rule,
// its checkpoint's label and its selector (never a scan or run id, nor the URL, which a journey may vary with a
// session parameter). The file changes only in a run that sets the baseline, and then only the entries of the
// journeys that run could judge whole; the others keep theirs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../exit-codes.js';
import { readTextFile } from '../io/read-file.js';
import { pullRequestRun } from '../settings/ci-env.js';

/** What the file holds: per journey id, its name (for people reading it) and its findings' fingerprints. */
export interface JourneyBaseline {
  version: 1;
  journeys: Record<string, { name?: string | undefined; fingerprints: string[] }>;
}

const FILE_SHAPE = z.object({
  version: z.literal(1),
  journeys: z.record(
    z.string(),
    z.object({ name: z.string().optional(), fingerprints: z.array(z.string().max(200)).max(100_000) }),
  ),
});

/**
 * A journey finding's fingerprint: `j1:` and the first 32 hex digits of SHA-256 over its rule, checkpoint label and
 * selector.
 * @example journeyFingerprint({ ruleId: 'image-alt', target: 'img.hero' }, 'Cart') // 'j1:…'
 */
export function journeyFingerprint(
  finding: { ruleId?: string | undefined; target?: string | undefined },
  checkpoint: string | undefined,
): string {
  const text = JSON.stringify([finding.ruleId ?? '', checkpoint ?? '', finding.target ?? '']);
  return `j1:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

/**
 * Reads the baseline file with the CLI's bounded reader; undefined when it does not exist yet (the first baseline
 * run writes it).
 * @throws UsageError (exit 2) naming the file and what is wrong with it
 * @example const baseline = readJourneyBaseline('.svc-a11y/journeys.json');
 */
function readJourneyBaseline(file: string): JourneyBaseline | undefined {
  if (!existsSync(file)) return undefined;
  const text = readTextFile(file, { what: 'journey baseline', maxBytes: 16 * 1024 * 1024 });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`journey baseline: ${file} is not JSON (${(error as Error).message})`, 'ci');
  }
  const parsed = FILE_SHAPE.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `journey baseline: ${file}: ${issue.path.join('.') || 'the file'} ${issue.message.toLowerCase()} (expected { "version": 1, "journeys": { "<journeyId>": { "fingerprints": [...] } } })`,
      'ci',
    );
  }
  return parsed.data as JourneyBaseline;
}

/**
 * The baseline a run may judge by: on a pull or merge request a file git tracks is not read, since the change under
 * review may have written it (every fingerprint in it would make its own findings "not new"); its journeys are then
 * judged as having none. Keep the file out of the repository (the Action's cache, a CI cache).
 * @throws UsageError (exit 2) as {@link readJourneyBaseline}
 * @example trustedJourneyBaseline('.svc-a11y/journeys.json', process.env) // { baseline, warning: undefined }
 */
export function trustedJourneyBaseline(
  file: string,
  env: Record<string, string | undefined>,
): { baseline: JourneyBaseline | undefined; warning?: string | undefined } {
  const pr = pullRequestRun(env);
  if (pr !== undefined && existsSync(file) && trackedByGit(file))
    return {
      baseline: undefined,
      warning: `warning: journey baseline: ${file} is committed in the repository, so on ${pr} it may be the change's own: not read (keep it in a cache, never in the repository)`,
    };
  return { baseline: readJourneyBaseline(file) };
}

// Whether git tracks the file (false outside a repository, or without git).
function trackedByGit(file: string): boolean {
  const path = resolve(file);
  try {
    execFileSync('git', ['ls-files', '--error-unmatch', '--', basename(path)], {
      cwd: dirname(path),
      stdio: 'ignore',
      timeout: 10_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the baseline file with the entries of `saved` replacing their journeys' (the others kept), through a
 * temporary file renamed into place, so a reader never sees half a file.
 * @example writeJourneyBaseline(file, before, { [id]: { name: 'Guest checkout', fingerprints } });
 */
export function writeJourneyBaseline(
  file: string,
  before: JourneyBaseline | undefined,
  saved: JourneyBaseline['journeys'],
): void {
  const journeys = { ...before?.journeys, ...saved };
  const sorted = Object.fromEntries(
    Object.keys(journeys)
      .sort()
      .map((id) => [id, journeys[id]!] as const),
  );
  // A first baseline run creates the file's folder (a cache restores none before it exists).
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, journeys: sorted }, null, 2)}\n`);
  renameSync(tmp, file);
}
