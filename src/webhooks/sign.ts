import { hmacSha256, toBase64, toHex } from './crypto.js';
import { fail } from './errors.js';

/** Options for {@link signWebhook}. */
export interface SignWebhookOptions {
  /** Raw body to sign; strings are signed as their UTF-8 bytes. */
  body: string | Uint8Array;
  /** Signing secret (UTF-8, used verbatim). */
  secret: string;
  /**
   * Delivery timestamp in seconds.
   * @default Math.floor(Date.now() / 1000)
   */
  timestamp?: number | undefined;
  /**
   * Delivery id.
   * @default crypto.randomUUID()
   */
  id?: string | undefined;
  /**
   * Event kind.
   * @default 'scan_run.completed'
   */
  type?: string | undefined;
  /**
   * Digest encoding after `v1=`.
   * @default 'hex'
   */
  encoding?: 'hex' | 'base64' | undefined;
}

/**
 * Produces the four `X-Svc-*` delivery headers for a body — for tests and local tooling that
 * need to simulate the service. Throws {@link WebhookVerificationError} (`NO_SECRET`,
 * `INVALID_TIMESTAMP`) on bad input.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ scanRunId: 'sr_1' });
 * const headers = await signWebhook({ body, secret: 'test-secret', type: 'scan_run.completed' });
 * await fetch('http://localhost:3000/webhooks', { method: 'POST', headers, body });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<Record<string, string>> {
  const { body, secret, type = 'scan_run.completed', encoding } = options;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (typeof secret !== 'string' || !secret) fail('NO_SECRET', 'secret must be a non-empty string.');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    fail('INVALID_TIMESTAMP', 'timestamp must be a non-negative integer of seconds.');
  const mac = await hmacSha256(secret, [`${timestamp}.`, body]);
  return {
    'X-Svc-Event': type,
    'X-Svc-Delivery': options.id ?? crypto.randomUUID(),
    'X-Svc-Timestamp': `${timestamp}`,
    'X-Svc-Signature': `v1=${encoding === 'base64' ? toBase64(mac) : toHex(mac)}`,
  };
}
