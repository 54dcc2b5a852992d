// Why a target is missed, per benchmark: causes, not figures (the figures are in the tables), added to the
// markdown under any benchmark with a missed row. Update when a cause goes away.
export const WHY_MISSED = {
  overhead: [
    'Throughput: a client with a per-attempt timeout must hand fetch an AbortSignal; undici registers every signal it is given (listener, WeakRef, FinalizationRegistry), and Node 20 builds each AbortController slowly. The "ceiling" (raw fetch + AbortController timeout) is that limit, measured in the same rounds, and ours runs close to it.',
    'The transport calls fetch(url, init) itself (no Request built first, which undici would copy; headers are plain objects built once); what remains on top of the ceiling is its own per-call work: the URL, the per-attempt header copy, reading the body through a reader under the byte cap, and JSON.parse.',
    'Pure cost: ~1.5 µs of it is the AbortController of the per-attempt timeout, and reading the body through a stream reader (for the byte cap) costs about what Response#text() does.',
    'Against the peers: when a target "ahead of ky / hey-api" is missed, read its per-round min–max first: a median near 1× with a spread far across it is that run\'s noise on a shared machine; what each peer does per call (the causes of a real gap) is listed under "About the peers".',
  ],
  size: [
    'Against the peers: ky and the hey-api SDK both make Node load its built-in fetch (undici) at import, which ours defers to its first request; the "+ loading Node\'s fetch" row compares like for like.',
    "Cold import: ~6 ms is the ESM loader starting (an `--input-type=module` process importing an almost empty module costs it too: see the webhooks row); zod's bundled core evaluates (~2 ms), and the request schemas are built at import (~3 ms).",
    'Root bundle: zod\'s core, which the generated request schemas need for pre-validation, weighs ~9 kB gzip; the root without it is under 10 kB (the "what-if" rows). Meeting the target means validators that are not zod, and the SDK design (architecture.md) asks for the generated zod schemas.',
    'Webhooks entry: it carries verification, signing, an in-memory replay store and both digest encodings (hex and base64: the document does not show which one the service uses); verifyWebhook alone is the "what-if" row. The messages that name each failure\'s header and rule are a few hundred bytes of it.',
  ],
  polling: [
    "Without hints: ≤ 10 % lateness needs ≤ 1.1× growth between polls, and ≤ 3× the minimum requests needs ≥ 2× growth across 50–2000 ms jobs; no schedule that does not know T meets both, so the default (×1.5) misses each a little. With the service's Retry-After hint every target is met; the document shows no hint, so the simulator sends one only with `pollHints`.",
    'Multi-page jobs reporting progress from the start, ≤ 6 requests per job: a first poll that sees the job RUNNING cannot tell when it left the queue between the create and that poll (the document says a new job is queued). Counting it from its creation (for the estimate and for the page under way) would reach ~5.9 requests per job, but would poll jobs whose queue ends just before the first poll seconds late (p95 lateness 6.8× the target at T = 4 s: bench/polling-model.mjs, last table). So the estimate counts from a quarter into that first wait, as after a QUEUED look, and the page under way only from the look that saw the job running: ~6.7.',
    'Very uneven pages (spread 1): one page can take several times another, so neither the estimate nor the page under way bounds the finish well, and in the scaled rows a machine delay of a few tens of ms is a large share of the 100 ms target.',
  ],
};

// What each peer does per call or at import, from its source (causes, not figures), printed under the
// side-by-side table of benchmarks 1–3 so a reader can tell why the figures differ.
export const ABOUT_PEERS = {
  overhead: [
    'ky 1.x, per call: merges its options with the defaults, creates an AbortController (its timeout), builds a Request and clones it (kept for retries), arms a timer raced against fetch, sets Accept for .json(), reads the text and JSON.parse()s it; no validation. undici copies the Request it is handed.',
    'hey-api SDK (client-fetch), per call: merges the config and builds a Headers object, resolves the bearer auth (awaited), awaits a zod parseAsync of the request options (body, path, query), builds a Request (which undici copies), reads the text, JSON.parse()s it and awaits a zod parseAsync of the response with the full `zod` package; no timeout, no retry.',
    'bare openapi-fetch: builds a Request per call (which undici copies) and parses the JSON; no timeout, no retry, no validation.',
    'Ceiling: raw fetch with an AbortController and an armed timer per call, i.e. only what a per-attempt timeout cannot avoid.',
  ],
  webhook: [
    'standardwebhooks: per verify() it lower-cases the header names into a new object, checks the timestamp against a 5-minute tolerance, turns the Buffer body into a string, builds `id.timestamp.body`, encodes it to bytes, computes HMAC-SHA256 in JavaScript (fast-sha256, not node:crypto), base64-encodes it, compares in constant time and JSON.parse()s the body. The JavaScript SHA-256 and the string copies are why its cost grows fastest with the body size.',
  ],
  size: [
    'ky: ~20 small ES modules; its feature detection builds a Request with a stream body at import, which makes Node 20 load its built-in fetch (undici).',
    'hey-api SDK: the generated sdk.gen imports the full `zod` package (classic API, not zod/mini) and zod.gen builds every schema of the document at import (no pure annotations, so a bundler keeps them all even for one operation); its client touches Headers when it is created, which loads undici.',
  ],
};
