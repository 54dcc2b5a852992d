// Vitest global setup: one Prism mock of openapi.yaml for the whole run, stopped by its PID.
import type { TestProject } from 'vitest/node';
import { startPrism } from '../../scripts/prism.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Prism mock serving openapi.yaml (`http://127.0.0.1:PORT`). */
    prismUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const prism = await startPrism();
  project.provide('prismUrl', prism.url);
  return async () => {
    await prism.stop();
  };
}
