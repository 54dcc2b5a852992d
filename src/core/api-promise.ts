// The promise every call returns: awaited, it gives the parsed body, as any promise; `.withResponse()` gives the
// body with the HTTP response it came from, from the same single request.

/** A call's parsed body with the HTTP response it came from. */
export interface WithResponse<T> {
  /** The parsed body, exactly what awaiting the call gives. */
  data: T;
  /**
   * The HTTP answer the body was read from: `status`, `headers` (`Retry-After`, `Location`, rate-limit headers
   * when the service sends them). Its body has been read. For `createAndWait` and `waitForCompletion`, the last
   * poll's answer (the one with the terminal status).
   */
  response: Response;
}

/**
 * What every client method returns: a `Promise` of the parsed body (await it, `.then` it, pass it to
 * `Promise.all`), plus {@link APIPromise.withResponse}. Nothing more is sent for either.
 * @example
 * ```ts
 * const { data: sites, response } = await client.sites.list().withResponse();
 * console.log(sites.length, response.status, response.headers.get('x-ratelimit-remaining'));
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  /** Promises derived by `catch` and `finally` (inherited: they call `then`) are plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /**
   * The call's answer, settled once, read by both faces: awaiting the call and withResponse() share the one
   * request. A plain property, internal (out of the .d.ts), not `#sent`: a private field would make the ESM and
   * the CommonJS declarations' APIPromise types incompatible (see test/package/strict-consumer.test.ts).
   * @internal
   */
  readonly sent: Promise<WithResponse<T>>;

  /** @internal @param sent - the call's answer, its body parsed */
  constructor(sent: Promise<WithResponse<T>>) {
    // The base promise is never read: `then` (and so `catch` and `finally`) reads `sent`, so a rejection is reported (or handled)
    // exactly once, by whichever face the caller uses.
    super((resolve) => resolve(undefined as T));
    this.sent = sent;
  }

  /**
   * The parsed body and the HTTP response it came from (status, headers), from the same request.
   * @example const { data, response } = await client.ciChecks.get(id).withResponse();
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.sent.then(({ data, response }) => ({ data, response }));
  }

  /** The parsed body, as any promise gives its value (`await`, `Promise.all`, `.catch` and `.finally` use it). */
  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass reading the shared answer is the point.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: the exact signature of Promise#then (lib.es5.d.ts).
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.sent.then((sent) => sent.data).then(onfulfilled, onrejected);
  }
}
