// The bundled entry of the GitHub Action (action.yml `runs.main`): runs the action once with the runner's
// environment. Anything runAction did not handle fails the step with its message (the runner masks the secrets
// the action registered), never a stack trace.
import * as core from '@actions/core';
import { runAction } from './main.js';

runAction(process.env).catch((error: unknown) => {
  core.setFailed(
    `internal error in the accessibility action (a bug: please report it): ${error instanceof Error ? error.message : String(error)}`,
  );
});
