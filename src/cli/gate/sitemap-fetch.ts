// Fetching one sitemap document under bounds: a size cap on what is read (after any Content-Encoding and after
// gunzip: a 50 MB document, an endless stream or a gzip bomb stops at the cap), one signal for time, and
// redirects followed by hand within the document's origin only (a sitemap cannot send the CLI to another host).
// Requests go through the proxy of HTTPS_PROXY / HTTP_PROXY / NO_PROXY exactly as the API's do (proxy.ts).
// Local files are read too, when they are regular files under the same cap.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { proxyVariablesFor, requestFetch } from '../io/proxy.js';
import { formatBytes } from '../io/read-file.js';
import { parseUrl } from '../io/parse-url.js';
import { readResponseCapped } from '../io/read-response.js';

/** Bounds of one document. */
export interface FetchSitemapOptions {
  /** Most bytes read, and most bytes a gzip-compressed document may expand to. */
  maxBytes: number;
  /** Ends every request (the run's sitemap deadline). */
  signal: AbortSignal;
  /**
   * Most same-origin redirects followed.
   * @default 5
   */
  maxRedirects?: number;
  /** `User-Agent` of the requests. */
  userAgent?: string;
  /**
   * The fetch to use (tests inject one).
   * @default the proxy-aware fetch of `env` (requestFetch in proxy.ts)
   */
  fetch?: typeof fetch;
  /**
   * The environment whose proxy settings apply (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, either case) when no `fetch`
   * is given: the CLI's process environment, which is the one the bin and the Action run the CLI with.
   * @default process.env
   */
  env?: Record<string, string | undefined>;
}

/** A document that could not be read within its bounds: the message says why (the caller names the document). */
export class SitemapFetchError extends Error {
  override name = 'SitemapFetchError';
}

const tooLarge = (maxBytes: number) =>
  new SitemapFetchError(`is larger than the ${formatBytes(maxBytes)} cap per sitemap; stopped reading`);

/**
 * The document at `url` (http or https) as bytes, gunzipped when it is gzip data (by its magic bytes, whatever
 * its name or type says). Redirects to the same origin are followed (at most `maxRedirects`); one to another
 * origin is refused, as is any answer other than 2xx.
 * @throws SitemapFetchError saying what went wrong (the caller names the sitemap)
 */
export async function fetchSitemapBytes(url: URL, options: FetchSitemapOptions): Promise<Buffer> {
  const env = options.env ?? process.env;
  // One set of connections per document (its redirects reuse them), ended once it has been read.
  const requests = options.fetch ? undefined : requestFetch(env);
  try {
    return await fetchWith(url, options, options.fetch ?? requests!.fetch, (protocol) =>
      requests?.proxied ? proxyVariablesFor(env, protocol) : [],
    );
  } finally {
    await requests?.close();
  }
}

async function fetchWith(
  url: URL,
  options: FetchSitemapOptions,
  fetchImpl: typeof fetch,
  proxyVariables: (protocol: string) => string[],
): Promise<Buffer> {
  const { maxBytes, signal, maxRedirects = 5 } = options;
  let current = url;
  for (let hops = 0; ; hops++) {
    let response: Response;
    const request = () =>
      fetchImpl(current, {
        redirect: 'manual',
        signal,
        headers: {
          accept: 'application/xml, text/xml;q=0.9, */*;q=0.1',
          ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
        },
      });
    try {
      // Sent once more when no answer came: a kept-alive connection the server closed as it idled (Node's servers
      // close them after 5 s) fails with ECONNRESET, and a GET of a sitemap is safe to send again.
      response = await request().catch((error: unknown) => {
        if (signal.aborted) throw error;
        return request();
      });
    } catch (error) {
      if (signal.aborted) throw timeUp(signal);
      const variables = proxyVariables(current.protocol);
      throw new SitemapFetchError(
        `could not be fetched (${causeOf(error)})${variables.length ? `; check the proxy (${variables.join(', ')}; NO_PROXY bypasses it)` : ''}`,
      );
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      const next = location ? parseUrl(location, current) : undefined;
      if (!next) throw new SitemapFetchError(`answered HTTP ${response.status} without a usable Location`);
      if (next.origin !== current.origin) {
        throw new SitemapFetchError(
          `redirects to another origin (${next.origin}); redirects are followed within the sitemap's own origin only`,
        );
      }
      if (hops >= maxRedirects) throw new SitemapFetchError(`redirects more than ${maxRedirects} times`);
      current = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new SitemapFetchError(`answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes && !response.headers.get('content-encoding')) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    return gunzipIfCompressed(await readCapped(response, maxBytes, signal), maxBytes);
  }
}

/**
 * A local sitemap file as bytes (gunzipped when gzip data): a regular file no larger than `maxBytes`. A FIFO,
 * a device or a directory is refused, so `/dev/zero` or a pipe can never hold the run.
 * @throws SitemapFetchError saying what is wrong (the caller names the file)
 */
export function readSitemapFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new SitemapFetchError(`cannot be read (${causeOf(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new SitemapFetchError('is not a regular file');
    if (stat.size > maxBytes) throw tooLarge(maxBytes);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= maxBytes; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) throw tooLarge(maxBytes);
    return gunzipIfCompressed(buffer.subarray(0, length), maxBytes);
  } finally {
    closeSync(fd);
  }
}

// The body under the cap (../io/read-response.ts), a failed read said as the sitemap's.
async function readCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  try {
    return await readResponseCapped(response, maxBytes, () => tooLarge(maxBytes));
  } catch (error) {
    if (error instanceof SitemapFetchError) throw error;
    throw signal.aborted ? timeUp(signal) : new SitemapFetchError(`could not be read (${causeOf(error)})`);
  }
}

// gzip by its magic bytes (1f 8b): `.xml.gz` files are often served as application/octet-stream. The output is
// capped by zlib itself (maxOutputLength), so a bomb stops at the cap instead of filling the memory.
function gunzipIfCompressed(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SitemapFetchError(`decompresses to more than the ${formatBytes(maxBytes)} cap per sitemap; stopped`);
    }
    throw new SitemapFetchError(`is not valid gzip data (${causeOf(error)})`);
  }
}

function timeUp(signal: AbortSignal): SitemapFetchError {
  const reason = signal.reason as unknown;
  return reason instanceof SitemapFetchError ? reason : new SitemapFetchError('was not read in time');
}

function causeOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  return e.cause?.code ?? e.code ?? e.cause?.message ?? e.message ?? String(error);
}
