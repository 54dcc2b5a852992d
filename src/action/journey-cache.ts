// The journeys' baseline file (`journey-baseline`) kept between runs in the Actions cache, so a workflow needs no
// cache steps of its own: restored before the check (the newest entry the run may read: on a pull request, its base
// branch's), saved after a run that set the baseline (a push to the default branch) under a key of its own, since a
// cache entry never changes. A pull request's run never saves (it never sets the baseline), so it cannot replace the
// baseline the default branch keeps. The cache is an aid: a cache that fails is a warning, never the step's failure.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as cache from '@actions/cache';
import * as core from '@actions/core';

/** What the cache reads of the run: the file, and whether journeys are run. */
interface JourneyFile {
  /** The `journey-baseline` input (a path in the workspace), if given. */
  file: string | undefined;
  /** Whether the `journeys` input names any. */
  journeys: boolean;
}

// Entries of one file share a prefix (its path's digest): the newest is restored whatever journeys it holds.
const prefixOf = (file: string) => `svc-a11y-journeys-${createHash('sha256').update(file).digest('hex').slice(0, 16)}-`;

/**
 * Restores the baseline file from the Actions cache before the check, unless the workflow put it there already (its
 * own cache step) or the cache is not available (a self-hosted runner without one).
 * @example await restoreJourneyBaseline({ file: '.svc-a11y/journeys.json', journeys: true }, process.env);
 */
export async function restoreJourneyBaseline(
  { file, journeys }: JourneyFile,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!file || !journeys) return;
  if (existsSync(file)) {
    core.info(`journey-baseline: ${file} is there already (the workflow restored it); the Actions cache is not read`);
    return;
  }
  if (!cache.isFeatureAvailable()) {
    core.info('journey-baseline: no Actions cache on this runner; the file is kept only where the workflow keeps it');
    return;
  }
  try {
    const hit = await cache.restoreCache([file], `${prefixOf(file)}${runKey(env)}`, [prefixOf(file)]);
    core.info(
      hit
        ? `journey-baseline: ${file} restored from the Actions cache (${hit})`
        : 'journey-baseline: none in the Actions cache yet (a push to the default branch saves it)',
    );
  } catch (error) {
    core.warning(`journey-baseline: the Actions cache could not be read: ${(error as Error).message}`);
  }
}

/**
 * Saves the baseline file to the Actions cache after a run that set the baseline and wrote it.
 * @example await saveJourneyBaseline({ file, journeys: true }, run.options?.setBaseline === true, process.env);
 */
export async function saveJourneyBaseline(
  { file, journeys }: JourneyFile,
  setBaseline: boolean,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!file || !journeys || !setBaseline || !existsSync(file) || !cache.isFeatureAvailable()) return;
  try {
    const key = `${prefixOf(file)}${runKey(env)}`;
    await cache.saveCache([file], key);
    core.info(`journey-baseline: ${file} saved to the Actions cache (${key})`);
  } catch (error) {
    core.warning(`journey-baseline: the Actions cache could not be written: ${(error as Error).message}`);
  }
}

// One key per run and attempt: a re-run of the job saves a new entry instead of meeting the old one's key.
const runKey = (env: Record<string, string | undefined>) =>
  `${env.GITHUB_RUN_ID ?? Date.now()}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`;
