// An HTTP answer's body read under a byte cap: chunk by chunk, stopping one chunk past the cap (the connection is let
// go), so a hostile or endless answer never fills the memory. Used by every fetch of the CLI that reads a body
// itself (sitemaps, the GitLab API).

/**
 * The body's bytes, at most `maxBytes`; past it, `tooLarge()` is thrown. Other read errors are thrown as they come.
 * @example const bytes = await readResponseCapped(response, 1024 * 1024, () => new Error('too large'));
 */
export async function readResponseCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, total);
}
