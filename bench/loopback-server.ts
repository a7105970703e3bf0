import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  port: number;
  /** Ends open keep-alive connections too, so closing never waits on a sender's idle socket. */
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 and a free port: the receivers the bench points its webhooks at. */
export const startLoopbackServer = async (listener: RequestListener): Promise<LoopbackServer> => {
  const sockets = new Set<Socket>();
  const server = createServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
