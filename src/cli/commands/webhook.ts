// `svc-a11y webhook verify`: checks a saved delivery (a raw HTTP request on stdin) with the signing secret.
import { verifyWebhook, WebhookVerificationError } from '../../webhooks/index.js';
import { UsageError } from '../exit-codes.js';
import { type Command, printJson } from '../context.js';
import { ExitCode } from '../exit-codes.js';

/**
 * Splits a raw HTTP request (optional request line, headers, blank line, body) into headers and the body's
 * exact bytes: the signature covers the body byte for byte, so it is never decoded and re-encoded.
 */
export function parseRawRequest(raw: Uint8Array): { headers: Record<string, string>; body: Uint8Array } {
  const text = new TextDecoder('latin1').decode(raw);
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) throw new UsageError('stdin must hold a raw HTTP request: headers, a blank line, then the body', 'webhook');
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, match.index).split(/\r?\n/)) {
    if (/^[A-Z]+ \S+ HTTP\/\d/.test(line)) continue;
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  // latin1 maps bytes 1:1 to code units, so the text offset is the byte offset.
  return { headers, body: raw.subarray(match.index + match[0].length) };
}

/** `svc-a11y webhook verify`. */
export const webhookCommand: Command = {
  name: 'webhook',
  summary: 'Verify a saved webhook delivery: svc-a11y webhook verify --secret … < request',
  args: { min: 1, max: 1, names: 'verify' },
  options: { secret: { type: 'string', multiple: true }, tolerance: { type: 'string' } },
  usage: `svc-a11y webhook verify --secret <secret> [--tolerance 300] < request.http

  Reads a raw HTTP request (headers, blank line, body) from stdin and checks its X-Svc-Signature.
  --secret <secret>     signing secret (repeatable, for rotation); default $SVC_WEBHOOK_SECRET
  --tolerance <secs>    accepted age of X-Svc-Timestamp in either direction (default 300); a saved
                        delivery is older, so give a larger value when checking an old one
  Exit 0 when valid, 1 when verification fails (the reason code is printed).`,
  async run(ctx) {
    if (ctx.args[0] !== 'verify') throw new UsageError(`unknown webhook action "${ctx.args[0]}" (expected: verify)`, 'webhook');
    const secrets = (ctx.values.secret as string[] | undefined) ?? (ctx.out.io.env.SVC_WEBHOOK_SECRET ? [ctx.out.io.env.SVC_WEBHOOK_SECRET] : []);
    if (!secrets.length) throw new UsageError('--secret (or SVC_WEBHOOK_SECRET) is required', 'webhook');
    secrets.forEach((s) => ctx.out.protect(s));
    const tolerance = ctx.values.tolerance === undefined ? 300 : Number(ctx.values.tolerance);
    if (!Number.isInteger(tolerance) || tolerance < 0) throw new UsageError('--tolerance must be a whole number of seconds', 'webhook');
    const stdin = ctx.out.io.stdin;
    if (!stdin) throw new UsageError('no stdin to read the request from', 'webhook');
    const chunks: Uint8Array[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    const { headers, body } = parseRawRequest(Buffer.concat(chunks));
    try {
      const event = await verifyWebhook({ body, headers, secret: secrets, toleranceSeconds: tolerance });
      if (ctx.json) printJson(ctx, event);
      else ctx.out.out(`verified ${event.type} delivery ${event.id} (timestamp ${event.timestamp})\n`);
      return ExitCode.OK;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      ctx.out.err(`webhook verification failed: ${error.reason}: ${error.message}`);
      return ExitCode.VERDICT_FAIL;
    }
  },
};
