import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real webhook receiver on 127.0.0.1 for the integration tests: it records every request (raw
 * body bytes, headers, when it arrived, when it was answered) and answers as it is told.
 */
export type Answer =
  /** Answer with this status (and optional body and headers), after `delayMs` if given. */
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  /** Read the request, then never answer (the sender's attempt timeout must end it). */
  | 'hang'
  /** Read the request, then reset the TCP connection (RST) without answering. */
  | 'reset';

export interface ReceivedRequest {
  /** 1-based arrival order at this receiver. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The raw body as UTF-8 text. */
  body: string;
  /** Date.now() when the request (its headers) arrived. */
  arrivedAt: number;
  /** Date.now() just before the answer was sent (or the connection reset); undefined for `hang` until the sender gives up. */
  answeredAt?: number;
  /** Date.now() when the sender closed the connection of a hanging request. */
  closedAt?: number;
  answer: Answer;
}

export type Responder = Answer | ((request: Omit<ReceivedRequest, 'answer' | 'answeredAt' | 'closedAt'>) => Answer);

export interface Receiver {
  /** `http://127.0.0.1:<port>` + path (default `/hook`). */
  url(path?: string): string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Changes how the next requests are answered. */
  respondWith(responder: Responder): void;
  /** Resolves once at least `count` requests have arrived (and been answered, unless hanging). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Resolves once request `index` (1-based) has been closed by the sender (for `hang`). */
  waitForClose(index: number, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every `intervalMs` until it is truthy, or fails after `timeoutMs` with `describe()`. */
export const eventually = async <T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  describe: () => string,
  intervalMs = 20,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await sleep(intervalMs);
  }
};

export const startReceiver = async (initial: Responder = { status: 200, body: 'ok' }): Promise<Receiver> => {
  let responder: Responder = initial;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, record: ReceivedRequest, answer: Exclude<Answer, 'hang' | 'reset'>): void => {
    const body = answer.body ?? '';
    res.writeHead(answer.status, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body), ...answer.headers });
    record.answeredAt = Date.now();
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    const arrivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const seen = {
        index: requests.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
        arrivedAt,
      };
      const answer = typeof responder === 'function' ? responder(seen) : responder;
      const record: ReceivedRequest = { ...seen, answer };
      requests.push(record);
      if (answer === 'hang') {
        res.on('close', () => {
          record.closedAt = Date.now();
        });
        return;
      }
      if (answer === 'reset') {
        record.answeredAt = Date.now();
        req.socket.resetAndDestroy();
        return;
      }
      if (answer.delayMs) setTimeout(() => send(res, record, answer), answer.delayMs);
      else send(res, record, answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const answered = (r: ReceivedRequest) => r.answer === 'hang' || r.answeredAt !== undefined;

  return {
    port,
    requests,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    respondWith(next) {
      responder = next;
    },
    waitFor: (count, timeoutMs = 15_000) =>
      eventually(
        () => (requests.length >= count && requests.slice(0, count).every(answered) ? requests : undefined),
        timeoutMs,
        () => `expected ${count} request(s) at the receiver, got ${requests.length}`,
      ),
    waitForClose: (index, timeoutMs = 15_000) =>
      eventually(
        () => {
          const request = requests[index - 1];
          return request?.closedAt !== undefined ? request : undefined;
        },
        timeoutMs,
        () => `request ${index} was not closed by the sender`,
      ),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** The parts of `t=<unix>,v1=<hex>[,v1=<hex>]`. */
export const parseSignature = (header: string | string[] | undefined): { t: number; v1: string[]; raw: string } => {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  const items = raw.split(',').map((item) => item.split('=') as [string, string]);
  const ts = items.filter(([k]) => k === 't').map(([, v]) => v);
  return { t: ts.length === 1 ? Number(ts[0]) : NaN, v1: items.filter(([k]) => k === 'v1').map(([, v]) => v), raw };
};
