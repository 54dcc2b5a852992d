// Receive signed webhook deliveries with Fastify: keep the JSON body as a Buffer so the signature can be checked.
import Fastify from 'fastify';
import { verifyWebhook, WebhookVerificationError } from '@svc/a11y-sdk/webhooks';

const app = Fastify();
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

app.post('/hooks/a11y', async (req, reply) => {
  try {
    const event = await verifyWebhook({
      body: req.body as Buffer,
      headers: req.headers,
      secret: process.env.SVC_WEBHOOK_SECRET ?? '',
    });
    req.log.info({ id: event.id, type: event.type }, 'accessibility event');
    return reply.code(204).send();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return reply.code(400).send(err.reason);
    throw err;
  }
});

// HOST unset: Fastify's default, localhost (behind a reverse proxy); HOST=0.0.0.0 to take deliveries directly.
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST });
