// Outbound webhook deliveries: signed with the SDK's signWebhook, a stable delivery id across attempts,
// retried on non-2xx or connection error. Every timer and request is tracked so stop() ends them all.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { signWebhook } from '../webhooks/index.js';

/** Where and how the simulator delivers webhooks. */
export interface SimulatorWebhook {
  /** Receiver URL (http or https). */
  url: string;
  /** Signing secret. */
  secret: string;
  /**
   * Attempts per delivery (the first one included).
   * @default 3
   */
  maxAttempts?: number;
  /**
   * Wait between attempts, in ms.
   * @default 200
   */
  retryDelayMs?: number;
}

/** One delivery attempt, as recorded in `Simulator.deliveries`. */
export interface SimulatorDelivery {
  /** Delivery id (`X-Svc-Delivery`), the same for every attempt of one delivery. */
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The receiver's HTTP status, or `'error'` when no answer came (refused, reset, 5 s timeout). */
  status: number | 'error';
  /** Event kind (`X-Svc-Event`), e.g. `scan_run.completed`. */
  type: string;
}

// An attempt that gets no answer within this time counts as an error.
const ATTEMPT_TIMEOUT_MS = 5_000;

/** Sends deliveries and owns every timer and socket they use. */
export class WebhookSender {
  readonly deliveries: SimulatorDelivery[] = [];
  readonly #options: SimulatorWebhook | undefined;
  readonly #clock: () => number;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();

  constructor(options: SimulatorWebhook | undefined, clock: () => number) {
    this.#options = options;
    this.#clock = clock;
  }

  /** True when a receiver is configured. */
  get enabled(): boolean {
    return this.#options !== undefined && !this.#abort.signal.aborted;
  }

  /** Runs `fn` after `ms` unless stopped first. The timer does not keep the process alive. */
  schedule(ms: number, fn: () => void): void {
    if (this.#abort.signal.aborted) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        fn();
      },
      Math.max(0, ms),
    );
    timer.unref();
    this.#timers.add(timer);
  }

  /** Starts a delivery of `payload` as event `type` (no-op without a receiver). */
  send(type: string, payload: unknown): void {
    if (!this.enabled) return;
    const run = this.#deliver(randomUUID(), type, JSON.stringify(payload));
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  /** Clears every timer, aborts requests in flight and waits for the deliveries to settle. */
  async stop(): Promise<void> {
    this.#abort.abort();
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await Promise.allSettled([...this.#inFlight]);
  }

  async #deliver(id: string, type: string, body: string): Promise<void> {
    const { url, secret, maxAttempts = 3, retryDelayMs = 200 } = this.#options!;
    for (let attempt = 1; attempt <= Math.max(1, maxAttempts); attempt++) {
      if (this.#abort.signal.aborted) return;
      // Each attempt is signed afresh (new timestamp), with the same delivery id.
      const headers = await signWebhook({ body, secret, id, type, timestamp: Math.floor(this.#clock() / 1000) });
      const status = await this.#post(url, body, headers);
      if (this.#abort.signal.aborted) return;
      this.deliveries.push({ id, attempt, status, type });
      if (typeof status === 'number' && status >= 200 && status < 300) return;
      if (attempt < maxAttempts) await this.#wait(retryDelayMs);
    }
  }

  // A wait that also ends when stop() aborts, so no delivery is left pending forever.
  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.#abort.signal;
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
      this.schedule(ms, resolve);
    });
  }

  // node:http rather than fetch: no pooled keep-alive socket outlives stop() or holds a receiver open.
  #post(target: string, body: string, headers: Record<string, string>): Promise<number | 'error'> {
    return new Promise((resolve) => {
      let req: ReturnType<typeof httpRequest>;
      try {
        const send = target.startsWith('https:') ? httpsRequest : httpRequest;
        req = send(target, {
          method: 'POST',
          agent: false,
          signal: this.#abort.signal,
          timeout: ATTEMPT_TIMEOUT_MS,
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Connection: 'close',
          },
        });
      } catch {
        return resolve('error');
      }
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 'error'));
        res.on('error', () => resolve(res.statusCode ?? 'error'));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve('error'));
      req.end(body);
    });
  }
}
