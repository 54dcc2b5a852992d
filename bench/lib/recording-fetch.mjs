// A fetch that records every request it sends (method, URL, status, send and answer times), so a
// benchmark can count HTTP requests per client and time them without touching the code under test.
export function recordingFetch(inner = globalThis.fetch) {
  const log = [];
  const fetch = async (input, init) => {
    const entry = {
      method: input?.method ?? init?.method ?? 'GET',
      url: String(input?.url ?? input),
      sentAt: performance.now(),
      answeredAt: NaN,
      status: 0,
    };
    log.push(entry);
    const response = await inner(input, init);
    entry.answeredAt = performance.now();
    entry.status = response.status;
    return response;
  };
  return { fetch, log };
}
