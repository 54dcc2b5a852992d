// A fetch-style handler (Cloudflare Workers, Deno, Bun, Next.js route handlers): `request.text()` is the raw body.
import { verifyWebhook, WebhookVerificationError } from '@svc/a11y-sdk/webhooks';

/** Handles one delivery: 204 when verified, 400 with the reason otherwise. */
export async function handleWebhook(request: Request, secret: string): Promise<Response> {
  try {
    const event = await verifyWebhook({ body: await request.text(), headers: request.headers, secret });
    console.log(event.type, event.id);
    return new Response(null, { status: 204 });
  } catch (err) {
    if (err instanceof WebhookVerificationError) return new Response(err.reason, { status: 400 });
    throw err;
  }
}

export default {
  fetch: (request: Request, env: { SVC_WEBHOOK_SECRET: string }) => handleWebhook(request, env.SVC_WEBHOOK_SECRET),
};
