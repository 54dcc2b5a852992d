// Receive signed webhook deliveries with Express. The raw body is required: express.raw(), never express.json().
import express from 'express';
import { MemoryReplayStore, verifyWebhook, WebhookVerificationError } from '@svc/a11y-sdk/webhooks';

const app = express();
const replayStore = new MemoryReplayStore();
const secret = process.env.SVC_WEBHOOK_SECRET ?? '';

app.post('/hooks/a11y', express.raw({ type: 'application/json' }), async (req, res) => {
  try {
    const event = await verifyWebhook({ body: req.body as Buffer, headers: req.headers, secret, replayStore });
    console.log(`${event.type} ${event.id}`, event.payload);
    res.sendStatus(204);
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    // A delivery seen before was already handled: acknowledge it so the service stops retrying. A store that could
    // not decide (full, or unreachable) is a temporary failure: 503, so the service delivers it again later.
    res.status(err.reason === 'REPLAYED' ? 200 : err.reason.startsWith('REPLAY_STORE_') ? 503 : 400).send(err.reason);
  }
});

// Every IPv4 interface by default (the service must reach it); HOST=127.0.0.1 behind a local reverse proxy.
app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '0.0.0.0');
