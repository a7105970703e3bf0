import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ScriptedResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

/** A model API on 127.0.0.1 that records each request and answers the script's response for it (1-based count). */
export const startFakeModelServer = async (script: (count: number, request: ReceivedRequest) => ScriptedResponse) => {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: text ? JSON.parse(text) : {},
      };
      requests.push(request);
      const answer = script(requests.length, request);
      if (answer.hang) return;
      outgoing.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      outgoing.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type FakeModelServer = Awaited<ReturnType<typeof startFakeModelServer>>;

/** Runs `promise` expecting it to reject, and returns the error. */
export const rejectionOf = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};
