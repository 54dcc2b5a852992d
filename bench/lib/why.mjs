// Why a target is missed, per benchmark: causes, not figures (the figures are in the tables), added to the
// markdown under any benchmark with a missed row. Update when a cause goes away.
export const WHY_MISSED = {
  overhead: [
    'Throughput: a client with a per-attempt timeout must hand fetch an AbortSignal; undici registers every signal it is given (listener, WeakRef, FinalizationRegistry), and Node 20 builds each AbortController slowly. The "raw fetch + AbortController signal + timer" row is that ceiling, and ours runs close to it.',
    'The transport no longer pays for a Request that undici copies again (openapi-fetch builds a plain record through its `Request` option, and our headers are plain objects built once); what remains on top of the ceiling is openapi-fetch\'s own per-call work (URL, header merge, response parsing). Meeting 0.97× means a transport without timeouts or without openapi-fetch, which architecture.md makes the transport.',
    'Pure cost: with an in-memory fetch ours is level with bare openapi-fetch; ~1.5 µs of it is the AbortController of the timeout.',
  ],
  size: [
    'Cold import: ~6 ms is the ESM loader starting (an `--input-type=module` process importing an almost empty module costs it too: see the webhooks row); openapi-fetch resolves from node_modules (~2 ms), zod\'s bundled core evaluates (~2 ms), and the request schemas are built at import (~3 ms).',
    'Root bundle: zod\'s core, which the generated request schemas need for pre-validation, weighs ~9 kB gzip; the root without it is under 10 kB (the "what-if" rows). Meeting the target means validators that are not zod, and issue 3 and architecture.md ask for the generated zod schemas.',
    'Webhooks entry: it carries verification, signing, an in-memory replay store and both digest encodings (hex and base64: the document does not show which one the service uses); verifyWebhook alone is the "what-if" row. The messages that name each failure\'s header and rule are a few hundred bytes of it.',
  ],
  polling: [
    'Without hints: ≤ 10 % lateness needs ≤ 1.1× growth between polls, and ≤ 3× the minimum requests needs ≥ 2× growth across 50–2000 ms jobs; no schedule that does not know T meets both, so the default (×1.5) misses each a little. With the service\'s Retry-After hint every target is met; the document shows no hint, so the simulator sends one only with `pollHints`.',
  ],
};
