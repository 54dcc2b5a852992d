// A TCP server on 127.0.0.1 (free port) that accepts every connection and never answers: a Redis that is
// frozen, or a firewall that swallows packets after the handshake. It counts the connections still open, so
// a test can tell that a client let go of its socket (or would keep its process alive).
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface SilentServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections the client has not closed yet. */
  open(): number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Reads what it is sent (so the client's writes never block) and says nothing.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    accepted: () => accepted,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Resolves once `condition()` holds, or after `ms` (then the caller's assertion reports what it saw). */
export async function eventually(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
