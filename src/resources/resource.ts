// What every resource family shares: the client's transport, and the mechanisms its one-line methods use.
import type { Transport } from './transport.js';

/** Base of the resource families (`client.scans`, `client.ciChecks`, …). */
export abstract class Resource {
  /** The client's transport: resource methods are one line over it. @internal */
  protected readonly transport: Transport;

  /** @internal @param transport - the client's transport */
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
