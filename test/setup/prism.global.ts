// Vitest global setup: one Prism mock of openapi.yaml for the whole run, and one validating Prism proxy in front of
// the simulators the contract tests start (routed by a header: test/support/upstream-router.ts); both stopped by
// their PID.
import type { TestProject } from 'vitest/node';
import { startPrism } from '../../scripts/prism.mjs';
import { startUpstreamRouter } from '../support/upstream-router.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Prism mock serving openapi.yaml (`http://127.0.0.1:PORT`). */
    prismUrl: string;
    /**
     * Base URL of the Prism proxy validating every request and answer against openapi.yaml (`--errors`: a violation
     * is a 500 with `sl-violations`), for a client whose fetch is `throughProxy(sim.url)`.
     */
    prismProxyUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const router = await startUpstreamRouter();
  const [prism, proxy] = await Promise.all([startPrism(), startPrism({ upstream: router.url })]);
  project.provide('prismUrl', prism.url);
  project.provide('prismProxyUrl', proxy.url);
  return async () => {
    await Promise.all([prism.stop(), proxy.stop()]);
    await router.close();
  };
}
