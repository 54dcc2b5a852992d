// Whether a run saves its checks as the baseline. The baseline is what every later check's findings are "new"
// against, so a change under review must not move it: on a pull or merge request (as the CI says, `ci-env.ts`) a
// config file's `setBaseline` is ignored, and only an explicit `--set-baseline` sets it, with a warning. `auto` (the
// default in a recognised CI) saves it on the default branch only (`default-branch.ts`).
import { pullRequestRun } from '../settings/ci-env.js';
import { defaultBranchRun } from '../settings/default-branch.js';
import { describeSource, type Env, type Setting } from '../settings/settings.js';

/** The decision, what to warn of, and (for `auto`) why, in words (undefined: nothing). */
export interface BaselineDecision {
  setBaseline: boolean;
  warning?: string | undefined;
  /** `auto`'s reason, naming the variables it read: printed when it saves the baseline. */
  note?: string | undefined;
}

/**
 * Decides `setBaseline` from its resolved setting and the CI environment.
 * @example decideBaseline({ value: true, source: { kind: 'config', key: 'setBaseline', file: 'a.json' } }, { GITHUB_EVENT_NAME: 'pull_request' }).setBaseline // false
 */
export function decideBaseline(
  setting: Setting<boolean | 'auto'>,
  env: Env,
  defaultBranch?: string | undefined,
): BaselineDecision {
  if (setting.value === 'auto') {
    const { onDefault, why } = defaultBranchRun(env, defaultBranch);
    return {
      setBaseline: onDefault,
      note: `set-baseline auto: ${onDefault ? 'saving' : 'not saving'} the baseline: ${why}`,
    };
  }
  if (!setting.value) return { setBaseline: false };
  const pr = pullRequestRun(env);
  if (pr === undefined) return { setBaseline: true };
  if (setting.source.kind === 'flag')
    return {
      setBaseline: true,
      warning: `warning: --set-baseline on ${pr}: these checks become the baseline, so their findings will not count as new for later checks. Save baselines from the default branch.`,
    };
  return {
    setBaseline: false,
    warning: `warning: ${describeSource(setting.source)} is ignored on ${pr}: a pull request cannot move the baseline other changes are compared with. It is saved from the default branch (or by an explicit --set-baseline).`,
  };
}
