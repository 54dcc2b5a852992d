/**
 * Offline simulator of the Accessibility Checking Service Developer API v1 (`@svc/a11y-sdk/testing`).
 * Node only (it listens with node:http on 127.0.0.1). Explicit named exports only.
 * @packageDocumentation
 */
export { startSimulator } from './simulator.js';
export type { Simulator, SimulatorCheckInfo, SimulatorCheckTiming, SimulatorOptions } from './simulator.js';
export type { SimulatorIds, SimulatorKeys } from './state.js';
export type { SimulatorPageDurations } from './page-durations.js';
export type { SimulatorRateLimit } from './rate-limit.js';
export type { SimulatorDelivery, SimulatorWebhook } from './webhooks.js';
export type { JobKind as SimulatorJobKind } from './jobs.js';
