import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

export interface LocalServer {
  port: number;
  url: string;
  requests: Seen[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** A plain HTTP server on 127.0.0.1 that records what reaches it and answers with `handler`. */
export const startServer = async (handler: Handler): Promise<LocalServer> => {
  const requests: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/** Never answers (until the server is closed). */
export const hang: Handler = () => undefined;

/** Starts servers and closes them all after each test. */
export const serverPool = () => {
  const servers: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler: Handler): Promise<LocalServer> => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
};

/** A port nothing listens on (bound, then released). */
export const closedPort = async (): Promise<number> => {
  const server = await startServer(answer(200));
  await server.close();
  return server.port;
};

export const rejectionOf = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};
