// Loops bounded in count AND time: a slow or stuck machine shortens a run instead of hanging it.

/** Runs `fn` sequentially up to `count` times or until `maxMs` elapse; returns how many ran. */
export async function repeat(count, maxMs, fn) {
  const end = performance.now() + maxMs;
  let i = 0;
  // Check the clock every 16 iterations: reading it each time would add to what is measured.
  while (i < count) {
    await fn(i);
    i++;
    if ((i & 15) === 0 && performance.now() > end) break;
  }
  return i;
}

/** Synchronous variant of {@link repeat}. */
export function repeatSync(count, maxMs, fn) {
  const end = performance.now() + maxMs;
  let i = 0;
  while (i < count) {
    fn(i);
    i++;
    if ((i & 15) === 0 && performance.now() > end) break;
  }
  return i;
}

/** `workers` concurrent loops sharing one budget of `count` calls and `maxMs`; returns how many ran. */
export async function repeatConcurrent(count, maxMs, workers, fn) {
  const end = performance.now() + maxMs;
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      await fn();
      if (performance.now() > end) break;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return started;
}

/** Rejects after `ms` (for a whole benchmark that must not exceed its share of the run). */
export function withTimeout(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} exceeded ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
