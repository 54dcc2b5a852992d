// One webhook receiver process, as a user writes it with the package's public entries (built dist/) and node:http:
// verifyWebhook with a replay store — RedisReplayStore shared with the other receivers, or a MemoryReplayStore of
// its own (the set-up the shared store replaces). Listens on 127.0.0.1 (a free port) and prints `{"port":N}` once
// listening. POST /hooks answers 204 when the delivery is accepted, 200 `REPLAYED` (already accepted: acknowledged),
// 503 with the reason when the store cannot decide (REPLAY_STORE_UNAVAILABLE, REPLAY_STORE_FULL), 400 with the
// reason otherwise. GET /warnings lists the codes the store warned with. SIGTERM closes the store and exits.
// Usage: node replay-receiver.mjs '<JSON: { secret, store: "redis" | "memory", format: "esm" | "cjs", redisUrl,
//   keyPrefix, whenUnavailable, connectTimeoutMs, commandTimeoutMs }>'
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const options = JSON.parse(process.argv[2]);
// `format: 'cjs'` requires the CommonJS entries instead, whose redis and webhooks files each hold their own copy of
// the error classes.
const load = (entry) =>
  options.format === 'cjs'
    ? createRequire(import.meta.url)(`../../dist/${entry}.cjs`)
    : import(`../../dist/${entry}.js`);
const { RedisReplayStore } = await load('redis');
const { MemoryReplayStore, verifyWebhook, WebhookVerificationError } = await load('webhooks');
const warnings = [];
const replayStore =
  options.store === 'memory'
    ? new MemoryReplayStore()
    : new RedisReplayStore({
        url: options.redisUrl,
        keyPrefix: options.keyPrefix,
        whenUnavailable: options.whenUnavailable,
        connectTimeoutMs: options.connectTimeoutMs,
        commandTimeoutMs: options.commandTimeoutMs,
        onWarning: (w) => warnings.push(w.code),
      });

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/warnings') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(warnings));
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret: options.secret, replayStore });
    res.writeHead(204).end();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) {
      res.writeHead(500).end(String(error));
      return;
    }
    const status = error.reason === 'REPLAYED' ? 200 : error.reason.startsWith('REPLAY_STORE_') ? 503 : 400;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(error.reason);
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.once('SIGTERM', async () => {
  await replayStore.close?.();
  server.close();
  server.closeAllConnections();
});
