// Reading an answer's body with a byte cap, enforced while it streams in: memory stays bounded whatever
// the server sends (a 1 GiB or endless body), and a stalled body ends with the signal that bounds the attempt.
const decoder = new TextDecoder(); // UTF-8, BOM stripped, invalid bytes replaced: what Response#text() does.

/**
 * The body as text, or `undefined` when it is longer than `limitBytes` (reading stops there and the rest
 * is cancelled). Rejects with the signal's reason when it aborts mid-body, even where the `fetch` in use
 * ignores the signal once it has answered (an in-memory or wrapped fetch).
 */
export async function readBody(
  response: Response,
  limitBytes: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const body = response.body;
  if (!body) return '';
  // A declared length over the cap is refused before a byte is read.
  if (Number(response.headers.get('content-length')) > limitBytes) {
    await body.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = body.getReader();
  const onAbort = () => void reader.cancel(signal!.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled reader reports `done`: an abort must not pass for a complete body.
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
    return decoder.decode(chunks.length === 1 ? chunks[0] : concat(chunks, size));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
