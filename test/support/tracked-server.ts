// A test server on 127.0.0.1 (a free port) that knows its open sockets, so closing it ends them at once rather than
// waiting for keep-alive connections to idle out: the proxies of the tests share this.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A listening server: its URL, a way to count another socket as its own, and a close that ends them all. */
export interface TrackedServer {
  url: string;
  /** Counts `socket` (an upstream connection the server opened) among those `close` ends. */
  track(socket: Socket): void;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1, port 0, and tracks every connection.
 * @example const { url, close } = await listenTracked(createServer(handler));
 */
export async function listenTracked(server: Server): Promise<TrackedServer> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    track,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
