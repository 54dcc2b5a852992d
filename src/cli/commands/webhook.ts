// `svc-a11y webhook verify`: checks a saved delivery (a raw HTTP request on stdin) with the signing secret.
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../../webhooks/index.js';
import { cleanText } from '../report/text.js';
import { UsageError } from '../exit-codes.js';
import { type Command, printJson } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS, SETTINGS, settingOf } from '../settings/settings.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';

/**
 * Splits a raw HTTP request (optional request line, headers, blank line, body) into headers and the body's
 * exact bytes: the signature covers the body byte for byte, so it is never decoded and re-encoded.
 * Header names are lowercased and a repeated header's values are joined with `, ` (an empty one included), values
 * trimmed of spaces and tabs only: what Node's HTTP server hands a receiver in `req.headers` for every `X-Svc-*`
 * header, so `verifyWebhook` judges the saved bytes as it judged them live (two `X-Svc-Signature` lines, any of
 * whose `v1=` values may match; two `X-Svc-Timestamp` lines, which are not a timestamp).
 */
export function parseRawRequest(raw: Uint8Array): { headers: Record<string, string>; body: Uint8Array } {
  const text = new TextDecoder('latin1').decode(raw);
  const match = /\r?\n\r?\n/.exec(text);
  if (!match)
    throw new UsageError('stdin must hold a raw HTTP request: headers, a blank line, then the body', 'webhook');
  // No prototype: a header named `constructor` or `__proto__` is just a header.
  const headers: Record<string, string> = Object.create(null);
  for (const line of text.slice(0, match.index).split(/\r?\n/)) {
    if (/^[A-Z]+ \S+ HTTP\/\d/.test(line)) continue;
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const name = line.slice(0, at).trim().toLowerCase();
    // Node trims only SP and HTAB (a latin1 0xA0 stays); verifyWebhook trims the rest itself.
    const value = line.slice(at + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    // Node keeps the first of a few standard headers (Host, Content-Type, …) and joins Cookie with `; `; none of
    // them is read here, so the join rule of every other header is the one that matters.
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  // latin1 maps bytes 1:1 to code units, so the text offset is the byte offset.
  return { headers, body: raw.subarray(match.index + match[0].length) };
}

/**
 * What `webhook verify` prints for a verified delivery. Only the timestamp and the body are signed: the event kind
 * and the delivery id come from unsigned headers, so they are labelled as such and cleaned of control characters
 * (a saved request is anyone's bytes).
 */
function describeVerified(event: WebhookEvent, bodyBytes: number): string {
  return (
    `verified: X-Svc-Signature matches the timestamp and the body (${bodyBytes} bytes)\n` +
    `  timestamp (signed): ${event.timestamp}\n` +
    `  event (unsigned): ${cleanText(event.type)}\n` +
    `  delivery id (unsigned): ${cleanText(event.id)}\n`
  );
}

/**
 * Cap on the header section (request line and headers). Node's own HTTP server refuses more than 16 KiB by
 * default (`--max-http-header-size`), so no genuine saved delivery comes near it; without this cap a stream
 * that never holds a blank line would be read without bound.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/** `26214400` → `25 MiB`; other values in bytes. */
function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;
}

/**
 * Reads a raw HTTP request from `input`, and stops (a UsageError, exit 2) as soon as its body exceeds
 * `maxBodyBytes` or its header section exceeds {@link MAX_HEADER_BYTES}: at most one chunk past the cap is ever
 * held, never the whole input. Leaving the loop early ends the iteration, which destroys a Node stream, so the
 * writer gets EPIPE rather than the process waiting for the rest.
 */
async function readRawRequest(input: AsyncIterable<Uint8Array | string>, maxBodyBytes: number): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // The header section so far, as latin1 text (1 byte = 1 code unit), while no blank line has been seen.
  let head = '';
  let bodyStart = -1;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    chunks.push(bytes);
    total += bytes.length;
    if (bodyStart < 0) {
      // A separator (at most 4 bytes) not found before may end in this chunk: search from 3 bytes back.
      const from = Math.max(0, head.length - 3);
      head += new TextDecoder('latin1').decode(bytes.subarray(0, MAX_HEADER_BYTES + 4 - head.length));
      const match = /\r?\n\r?\n/.exec(head.slice(from));
      if (match) bodyStart = from + match.index + match[0].length;
      else if (head.length > MAX_HEADER_BYTES) {
        throw new UsageError(
          `the request on stdin has no blank line within its first ${formatBytes(MAX_HEADER_BYTES)}: it must hold headers, a blank line, then the body`,
          'webhook',
        );
      }
    }
    if (bodyStart >= 0 && total - bodyStart > maxBodyBytes) {
      throw new UsageError(
        `the request body on stdin is larger than the ${formatBytes(maxBodyBytes)} cap (${maxBodyBytes} bytes); stopped reading. ` +
          'Raise it with --max-body-bytes <bytes> if the delivery is genuine',
        'webhook',
      );
    }
  }
  return Buffer.concat(chunks, total);
}

/** `svc-a11y webhook verify`. */
export const webhookCommand: Command = {
  name: 'webhook',
  summary: 'Verify a saved webhook delivery: svc-a11y webhook verify --secret … < request',
  args: { min: 1, max: 1, names: 'verify' },
  options: optionsOf('webhook'),
  usage: `svc-a11y webhook verify --secret <secret> [--tolerance ${DEFAULT_TOLERANCE_SECONDS}] [--max-body-bytes ${DEFAULT_MAX_BODY_BYTES}] < request.http

  Reads a raw HTTP request (headers, blank line, body) from stdin and checks its X-Svc-Signature.
  Repeated header lines are joined with ", " as Node's HTTP server joins them. Only the timestamp and the body
  are signed: the event kind (X-Svc-Event) and delivery id (X-Svc-Delivery) are printed as unsigned.
${optionsHelp('webhook', 26)}
  Exit 0 when valid, 1 when verification fails (the reason code is printed), 2 on bad input.`,
  async run(ctx) {
    if (ctx.args[0] !== 'verify')
      throw new UsageError(`unknown webhook action "${ctx.args[0]}" (expected: verify)`, 'webhook');
    const secrets = settingOf(ctx, SETTINGS.webhookSecrets).value;
    if (!secrets.length) throw new UsageError('--secret (or SVC_WEBHOOK_SECRET) is required', 'webhook');
    for (const s of secrets) ctx.out.protect(s);
    const tolerance = settingOf(ctx, SETTINGS.toleranceSeconds).value;
    const maxBodyBytes = settingOf(ctx, SETTINGS.maxBodyBytes).value;
    const stdin = ctx.out.io.stdin;
    if (!stdin) throw new UsageError('no stdin to read the request from', 'webhook');
    const { headers, body } = parseRawRequest(await readRawRequest(stdin, maxBodyBytes));
    try {
      const event = await verifyWebhook({ body, headers, secret: secrets, toleranceSeconds: tolerance });
      // `unsigned` names the fields a forger could have chosen; the JSON encoding escapes control characters.
      if (ctx.json) printJson(ctx, { ...event, unsigned: ['id', 'type'] });
      else ctx.out.out(describeVerified(event, body.length));
      return ExitCode.OK;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      ctx.out.err(`webhook verification failed: ${error.reason}: ${error.message}`);
      return ExitCode.VERDICT_FAIL;
    }
  },
};
