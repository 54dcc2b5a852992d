/**
 * Webhook verification for the Accessibility Checking Service (`@svc/a11y-sdk/webhooks`).
 * Runtime-neutral: Node (fast path via `createHmac`), browsers and edge runtimes (Web Crypto).
 * @packageDocumentation
 */
export { verifyWebhook } from './verify.js';
export type { VerifyWebhookOptions, WebhookEvent } from './verify.js';
export { signWebhook } from './sign.js';
export type { SignWebhookOptions } from './sign.js';
export { WebhookVerificationError } from './errors.js';
export type { WebhookVerificationReason } from './errors.js';
export { MemoryReplayStore } from './replay-store.js';
export type { ReplayStore, MemoryReplayStoreOptions } from './replay-store.js';
export type { WebhookHeadersInput } from './headers.js';
