import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assessTarget, classifyNetworkError, postWebhook, type LookupAll } from '../../../functions/adapters/http/webhook-http-client';
import { describeError } from '../../../functions/adapters/http/target-resolution';
import { timedOut, withDeadline } from '../../../functions/adapters/http/checked-address';
import type { TargetPolicy } from '../../../functions/core/webhooks/target-policy';

const live: TargetPolicy = { requireHttps: true, allowPrivate: false };
const local: TargetPolicy = { requireHttps: false, allowPrivate: true };

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

interface TestServer {
  port: number;
  url: string;
  /** Requests that reached the handler, with their bodies. */
  requests: Seen[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  close(): Promise<void>;
}

const listen = async (server: http.Server | https.Server, host = '127.0.0.1'): Promise<{ port: number; sockets: Set<Socket> }> => {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, sockets };
};

const closeServer = async (server: http.Server | https.Server, sockets: Set<Socket>): Promise<void> => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
};

/** A plain HTTP server on 127.0.0.1 that records what reaches it and answers with `handler`. */
const startServer = async (
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
  host = '127.0.0.1',
): Promise<TestServer> => {
  const requests: Seen[] = [];
  const state = { connections: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  const { port, sockets } = await listen(server, host);
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    close: () => closeServer(server, sockets),
  };
};

const answer =
  (status: number, body = '', headers: Record<string, string> = {}) =>
  (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/** A lookup that records its calls and answers from a fixed table. */
const fakeLookup = (table: Record<string, string[]>): LookupAll & { calls: string[] } => {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(lookup, { calls });
};

const body = JSON.stringify({ id: 'evt_01J', type: 'workflow.completed', data: { id: 'wf_01J' } });
const secretHeader = 't=1795000000,v1=5ecre7000000000000000000000000000000000000000000000000000000000';
const headers = { 'X-Service-Signature': secretHeader, 'X-Service-Event-Id': 'evt_01J', 'User-Agent': 'ProjectAutomation-Webhooks/1.0' };

const servers: TestServer[] = [];
const start = async (...args: Parameters<typeof startServer>) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('postWebhook: outcomes', () => {
  it('200 is a success; the body, the given headers and a JSON content type reach the target', async () => {
    const server = await start(answer(200, 'thanks'));
    const result = await postWebhook({ url: `${server.url}/hooks/in?src=svc`, headers, body, policy: local });
    expect(result).toEqual({
      ok: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      error: null,
      errorMessage: null,
      responseExcerpt: 'thanks',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    const [seen] = server.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/hooks/in?src=svc', body });
    expect(seen?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-service-signature': secretHeader,
      'x-service-event-id': 'evt_01J',
      'user-agent': 'ProjectAutomation-Webhooks/1.0',
      host: `127.0.0.1:${server.port}`,
      connection: 'keep-alive',
    });
  });

  it('keeps a given content type and sends a non-ASCII body with its byte length', async () => {
    const server = await start(answer(200));
    const unicode = JSON.stringify({ name: 'Déploiement 🚀' });
    const result = await postWebhook({
      url: server.url,
      headers: { 'content-type': 'application/cloudevents+json', 'Content-Length': '1' },
      body: unicode,
      policy: local,
    });
    expect(result.ok).toBe(true);
    expect(server.requests[0]?.headers['content-type']).toBe('application/cloudevents+json');
    expect(server.requests[0]?.headers['content-length']).toBe(String(Buffer.byteLength(unicode)));
    expect(server.requests[0]?.body).toBe(unicode);
  });

  it('204 is a success', async () => {
    const server = await start(answer(204));
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({
      ok: true,
      statusCode: 204,
      error: null,
      responseExcerpt: '',
    });
  });

  it.each([500, 410, 400, 404, 429])('%i is a failure of class http_status, with the excerpt of the body', async (status) => {
    const server = await start(answer(status, `{"error":"nope ${status}"}`));
    const result = await postWebhook({ url: server.url, headers, body, policy: local });
    expect(result).toMatchObject({
      ok: false,
      statusCode: status,
      error: 'http_status',
      errorMessage: `HTTP ${status}`,
      responseExcerpt: `{"error":"nope ${status}"}`,
    });
    expect(result.errorMessage).not.toContain('5ecre7');
  });

  it('301 is a failure and the redirect is not followed', async () => {
    const elsewhere = await start(answer(200));
    const server = await start(answer(301, 'moved', { Location: `${elsewhere.url}/new` }));
    const result = await postWebhook({ url: server.url, headers, body, policy: local });
    expect(result).toMatchObject({ ok: false, statusCode: 301, error: 'http_status' });
    expect(server.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(elsewhere.connections).toBe(0);
  });

  it('307 and 308 are not followed either', async () => {
    const elsewhere = await start(answer(200));
    for (const status of [302, 307, 308]) {
      const server = await start(answer(status, '', { Location: elsewhere.url }));
      expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({
        ok: false,
        statusCode: status,
        error: 'http_status',
      });
    }
    expect(elsewhere.connections).toBe(0);
  });

  it('a target that never answers is a timeout, within timeoutMs', async () => {
    const server = await start(() => {
      /* never answers */
    });
    const result = await postWebhook({ url: server.url, headers, body, policy: local, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout', errorMessage: 'no response within 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });

  it('a timed-out attempt waits the whole limit, never a moment less, and records the time it really took', async () => {
    const server = await start(() => {
      /* never answers */
    });
    // The time left after the address is resolved is a fraction of a millisecond off whole ones, which a plain timer drops (9999 of 10000).
    for (let i = 0; i < 20; i += 1) {
      const before = performance.now();
      const result = await postWebhook({ url: server.url, headers, body, policy: local, timeoutMs: 25 });
      const elapsed = performance.now() - before;
      expect(result).toMatchObject({ ok: false, error: 'timeout', errorMessage: 'no response within 25 ms' });
      expect(result.durationMs).toBeGreaterThanOrEqual(25);
      expect(result.durationMs).toBeLessThanOrEqual(Math.ceil(elapsed));
    }
  });

  it('a 2xx whose body never ends succeeds at the time limit with what was read: the receiver accepted the event', async () => {
    const server = await start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
    });
    const result = await postWebhook({ url: server.url, headers, body, policy: local, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: 'partial' });
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('a 2xx whose body is cut off succeeds too; a 500 whose body never ends stays a timeout', async () => {
    const cut = await start((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('half', () => req.socket.destroy());
    });
    expect(await postWebhook({ url: cut.url, headers, body, policy: local })).toMatchObject({
      ok: true,
      statusCode: 200,
      responseExcerpt: 'half',
    });
    const failing = await start((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.write('partial');
    });
    expect(await postWebhook({ url: failing.url, headers, body, policy: local, timeoutMs: 300 })).toMatchObject({
      ok: false,
      statusCode: 500,
      error: 'timeout',
    });
  });

  it('a 2xx whose connection is reset (RST) mid-body succeeds too: the status line was the acceptance', async () => {
    const reset = await start((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
      res.write('partial', () => setTimeout(() => (req.socket as Socket & { resetAndDestroy(): void }).resetAndDestroy(), 20));
    });
    expect(await postWebhook({ url: reset.url, headers, body, policy: local })).toMatchObject({
      ok: true,
      statusCode: 200,
      error: null,
      responseExcerpt: 'partial',
    });
  });

  it('a connection reset is a connection failure', async () => {
    const server = await start((req) => {
      const socket = req.socket as Socket & { resetAndDestroy?: () => void };
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
    });
    const result = await postWebhook({ url: server.url, headers, body, policy: local });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'connection' });
    expect(result.errorMessage).toMatch(/ECONNRESET|socket hang up/);
  });

  it('a connection closed without an answer is a connection failure', async () => {
    const server = await start((req) => req.socket.destroy());
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: false, error: 'connection' });
  });

  it('an answer that is not HTTP is a connection failure that says so, in words', async () => {
    const server = await start((req) => {
      req.socket.end('SSH-2.0-OpenSSH_9.6\r\n');
    });
    const result = await postWebhook({ url: server.url, headers, body, policy: local });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'connection' });
    expect(result.errorMessage).toMatch(/^the answer is not HTTP: .+ \(HPE_[A-Z_]+\)$/);
    expect(result.errorMessage).not.toContain('Parse Error');
  });

  it('a closed port is a connection failure', async () => {
    const server = await start(answer(200));
    const { url } = server;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const result = await postWebhook({ url, headers, body, policy: local });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'connection' });
    expect(result.errorMessage).toBe('connect ECONNREFUSED');
    expect(result.errorMessage).not.toContain('5ecre7');
  });

  it('https to a plain-http server is a TLS failure', async () => {
    const server = await start(answer(200));
    const result = await postWebhook({
      url: `https://127.0.0.1:${server.port}/`,
      headers,
      body,
      policy: { requireHttps: true, allowPrivate: true },
    });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'tls' });
    expect(result.errorMessage).toMatch(/^(EPROTO: wrong version number|ERR_SSL_\w+.*)$/);
  });

  it('reads at most 4 KiB of a 1 MB body, and stops reading at once', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const server = await start(answer(200, big));
    const result = await postWebhook({ url: server.url, headers, body, policy: local });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(Buffer.byteLength(result.responseExcerpt)).toBe(4096);
    expect(result.responseExcerpt).toBe(big.slice(0, 4096));
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('keeps the excerpt within 4096 UTF-8 bytes for multi-byte and invalid bodies', async () => {
    const server = await start((req, res) => {
      res.writeHead(500);
      res.end(req.url === '/binary' ? Buffer.alloc(100_000, 0xff) : 'é€🚀'.repeat(100_000));
    });
    const text = await postWebhook({ url: `${server.url}/text`, headers, body, policy: local });
    expect(text).toMatchObject({ ok: false, statusCode: 500, error: 'http_status' });
    expect(Buffer.byteLength(text.responseExcerpt)).toBeLessThanOrEqual(4096);
    expect(text.responseExcerpt).not.toContain('\ufffd');
    expect(text.responseExcerpt.startsWith('é€🚀é€🚀')).toBe(true);
    const binary = await postWebhook({ url: `${server.url}/binary`, headers, body, policy: local });
    expect(Buffer.byteLength(binary.responseExcerpt)).toBeLessThanOrEqual(4096);
  });

  it('keeps the excerpt within 4096 bytes as the delivery log’s JSON carries it: control characters, quotes and backslashes count as their escapes', async () => {
    const server = await start((req, res) => {
      res.writeHead(502);
      res.end(req.url === '/zeros' ? Buffer.alloc(8192, 0) : 'a"b\\c\n\u0001'.repeat(2000));
    });
    const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
    const zeros = await postWebhook({ url: `${server.url}/zeros`, headers, body, policy: local });
    expect(zeros).toMatchObject({ ok: false, statusCode: 502 });
    // Each NUL is six bytes in JSON (\u0000): 682 of them, not 4096 (24 KiB in the log's answer).
    expect(zeros.responseExcerpt).toBe('\u0000'.repeat(682));
    const mixed = await postWebhook({ url: `${server.url}/mixed`, headers, body, policy: local });
    expect(jsonBytes(mixed.responseExcerpt)).toBeLessThanOrEqual(4096);
    expect(jsonBytes(mixed.responseExcerpt)).toBeGreaterThan(4096 - 6);
    expect(mixed.responseExcerpt.startsWith('a"b\\c\n\u0001a"b')).toBe(true);
  });

  it('DNS failures are of class dns', async () => {
    const result = await postWebhook({ url: 'https://nowhere.example/', headers, body, policy: live, lookup: fakeLookup({}) });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'dns' });
    expect(result.errorMessage).toMatch(/ENOTFOUND/);
    const empty = await postWebhook({
      url: 'https://empty.example/',
      headers,
      body,
      policy: live,
      lookup: fakeLookup({ 'empty.example': [] }),
    });
    expect(empty).toMatchObject({ ok: false, error: 'dns' });
  });

  it('a resolver that hangs is a timeout, within timeoutMs', async () => {
    const hanging: LookupAll = () => new Promise(() => undefined);
    const result = await postWebhook({ url: 'https://slow-dns.example/', headers, body, policy: live, lookup: hanging, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('a resolution bounded by a deadline waits all of it, never a moment less', async () => {
    const hanging = new Promise<never>(() => undefined);
    // What is left of an attempt's limit is rarely whole milliseconds; a plain timer drops the fraction.
    for (const ms of [24.3, 24.5, 24.7, 24.9]) {
      const before = performance.now();
      expect(await withDeadline(hanging, ms)).toBe(timedOut);
      expect(performance.now() - before).toBeGreaterThanOrEqual(ms);
    }
  });

  it('never throws, even when the lookup does', async () => {
    const throwing: LookupAll = () => {
      throw new Error('boom');
    };
    expect(await postWebhook({ url: 'https://x.example/', headers, body, policy: live, lookup: throwing })).toMatchObject({
      ok: false,
      error: 'dns',
    });
    expect(await postWebhook({ url: 'not a url', headers, body, policy: live })).toMatchObject({ ok: false, error: 'refused_target' });
    const server = await start(answer(200));
    const badHeader = await postWebhook({ url: server.url, headers: { 'X-Bad': 'a\r\nInjected: 1' }, body, policy: local });
    expect(badHeader).toMatchObject({ ok: false, error: 'connection' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('postWebhook: kept-alive connections', () => {
  it('the next attempt to the same origin and checked address reuses the connection', async () => {
    const server = await start(answer(200));
    for (let i = 0; i < 3; i += 1) expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
  });

  it('a request whose check found other addresses never takes a kept connection', async () => {
    const server = await start(answer(200));
    const url = `http://hooks.example.test:${server.port}/in`;
    const first = fakeLookup({ 'hooks.example.test': ['127.0.0.1'] });
    const second = fakeLookup({ 'hooks.example.test': ['127.0.0.1', '127.0.0.1'] });
    expect(await postWebhook({ url, headers, body, policy: local, lookup: first })).toMatchObject({ ok: true });
    expect(await postWebhook({ url, headers, body, policy: local, lookup: second })).toMatchObject({ ok: true });
    expect(server.connections).toBe(2);
  });

  it('a response not read to its end closes its connection', async () => {
    const server = await start(answer(200, 'x'.repeat(64 * 1024)));
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: true });
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: true });
    expect(server.connections).toBe(2);
  });

  it('a kept connection the server drops as the request arrives: the attempt is sent again, once, on a new connection', async () => {
    const requestsPerSocket = new Map<Socket, number>();
    const server = await start((req, res) => {
      const seen = (requestsPerSocket.get(req.socket) ?? 0) + 1;
      requestsPerSocket.set(req.socket, seen);
      if (seen > 1) req.socket.destroy();
      else answer(200)(req, res);
    });
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: true });
    expect(await postWebhook({ url: server.url, headers, body, policy: local })).toMatchObject({ ok: true, statusCode: 200 });
    expect(server.connections).toBe(2);
    expect(server.requests).toHaveLength(3);
  });
});

describe('postWebhook: refused targets', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await start(answer(200));
  });

  const refusedWithoutContact = async (url: string, policy: TargetPolicy, lookup = fakeLookup({})) => {
    const result = await postWebhook({ url, headers, body, policy, lookup });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'refused_target', responseExcerpt: '' });
    expect(server.connections).toBe(0);
    expect(server.requests).toHaveLength(0);
    return { result, lookup };
  };

  it.each([
    ['http://127.0.0.1', /https/],
    ['https://127.0.0.1', /loopback/],
    ['https://10.0.0.1', /private/],
    ['https://169.254.169.254', /metadata/],
    ['https://[::1]', /loopback/],
    ['https://[::ffff:127.0.0.1]', /loopback/],
    ['https://[::ffff:7f00:1]', /loopback/],
    ['https://localhost', /loopback/],
  ])('%s with the default policy, without resolving or connecting', async (base, reason) => {
    const port = base.includes('127.0.0.1') || base.includes('7f00') || base.includes('localhost') ? `:${server.port}` : '';
    const { result, lookup } = await refusedWithoutContact(`${base}${port}/hook`, live);
    expect(result.errorMessage).toMatch(reason);
    expect(lookup.calls).toEqual([]);
  });

  it('loopback is refused for test mode in AWS (no allowPrivate), even over http', async () => {
    await refusedWithoutContact(`http://127.0.0.1:${server.port}/`, { requireHttps: false, allowPrivate: false });
    await refusedWithoutContact(`http://localhost:${server.port}/`, { requireHttps: false, allowPrivate: false });
  });

  it('the metadata and link-local addresses are refused even with allowPrivate', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'https://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://169.254.170.2/v2/credentials',
      'http://[::ffff:a9fe:a9fe]/',
    ]) {
      const { result } = await refusedWithoutContact(url, local);
      expect(result.errorMessage).toMatch(/metadata|link-local/);
    }
  });

  it('a name that resolves to a private address is refused after resolution', async () => {
    const lookup = fakeLookup({ 'internal.example': ['10.1.2.3'] });
    const { result } = await refusedWithoutContact('https://internal.example/hook', live, lookup);
    expect(result.errorMessage).toBe('internal.example resolves to a private address');
    expect(lookup.calls).toEqual(['internal.example']);
  });

  it('a name is refused when ANY of its addresses is forbidden, and nothing is contacted', async () => {
    // Were the first address used, the local server would see the connection.
    const lookup = fakeLookup({ 'mixed.test': ['127.0.0.1', '169.254.169.254'] });
    const { result } = await refusedWithoutContact(`http://mixed.test:${server.port}/`, local, lookup);
    expect(result.errorMessage).toBe('mixed.test resolves to a cloud metadata address');
    const rebinding = fakeLookup({ 'rebind.test': ['127.0.0.1'] });
    await refusedWithoutContact(`http://rebind.test:${server.port}/`, { requireHttps: false, allowPrivate: false }, rebinding);
    expect(rebinding.calls).toEqual(['rebind.test']);
  });
});

describe('postWebhook: pinning', () => {
  it('connects to the checked address, keeping the original name in the Host header', async () => {
    const server = await start(answer(200, 'pinned'));
    const lookup = fakeLookup({ 'pinned.test': ['127.0.0.1'] });
    // No resolver knows pinned.test: the request can only arrive if the checked address is used.
    const result = await postWebhook({ url: `http://pinned.test:${server.port}/in`, headers, body, policy: local, lookup });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'pinned' });
    expect(lookup.calls).toEqual(['pinned.test']);
    expect(server.requests[0]?.headers.host).toBe(`pinned.test:${server.port}`);
  });

  it('tries every checked address (IPv6 first, then IPv4) and only those', async () => {
    const server = await start(answer(200));
    const lookup = fakeLookup({ 'dual.test': ['::1', '127.0.0.1'] });
    const result = await postWebhook({ url: `http://dual.test:${server.port}/`, headers, body, policy: local, lookup });
    expect(result.ok).toBe(true);
    expect(server.requests[0]?.headers.host).toBe(`dual.test:${server.port}`);
  });

  it('resolves a real name with the system resolver when no lookup is given', async () => {
    const server = await start(answer(200));
    const result = await postWebhook({ url: `http://localhost:${server.port}/`, headers, body, policy: local });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(server.requests[0]?.headers.host).toBe(`localhost:${server.port}`);
  });

  it('reaches an IPv6 literal', async () => {
    const server = await start(answer(202), '::1');
    const result = await postWebhook({ url: `${server.url}/`, headers, body, policy: local });
    expect(result).toMatchObject({ ok: true, statusCode: 202 });
    expect(server.requests[0]?.headers.host).toBe(`[::1]:${server.port}`);
  });
});

describe('postWebhook: TLS to the pinned address', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  let tls: { key: Buffer; cert: Buffer };
  // openssl ships with Debian's base system, which the CI machine has.
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=pinned.test',
        '-addext',
        'subjectAltName=DNS:pinned.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  it('sends the original name as SNI and refuses an untrusted certificate as a TLS failure', async () => {
    const seenServernames: string[] = [];
    const server = https.createServer(
      {
        ...tls,
        SNICallback: (servername, callback) => {
          seenServernames.push(servername);
          callback(null, undefined);
        },
      },
      answer(200),
    );
    const { port, sockets } = await listen(server);
    try {
      const lookup = fakeLookup({ 'pinned.test': ['127.0.0.1'] });
      const result = await postWebhook({
        url: `https://pinned.test:${port}/`,
        headers,
        body,
        policy: { requireHttps: true, allowPrivate: true },
        lookup,
      });
      expect(result).toMatchObject({ ok: false, statusCode: null, error: 'tls' });
      expect(result.errorMessage).toMatch(/self[- ]signed/i);
      expect(seenServernames).toEqual(['pinned.test']);
    } finally {
      await closeServer(server, sockets);
    }
  });
});

describe('describeError', () => {
  it('leaves out the address and port a socket error names, for one address or several (happy eyeballs)', () => {
    const refused = (address: string, port: number) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:${port}`), { code: 'ECONNREFUSED', address, port });
    expect(describeError(refused('203.0.113.7', 443))).toBe('connect ECONNREFUSED');
    expect(describeError(refused('2001:db8::7', 8443))).toBe('connect ECONNREFUSED');
    expect(describeError(new AggregateError([refused('203.0.113.7', 443), refused('2001:db8::7', 443)]))).toBe('connect ECONNREFUSED');
    expect(describeError(Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' }))).toBe(
      'getaddrinfo ENOTFOUND hooks.example.com',
    );
  });
});

describe('classifyNetworkError', () => {
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ENODATA', 'dns'],
    ['ECONNREFUSED', 'connection'],
    ['ECONNRESET', 'connection'],
    ['EPIPE', 'connection'],
    ['EHOSTUNREACH', 'connection'],
    ['ENETUNREACH', 'connection'],
    ['HPE_INVALID_CONSTANT', 'connection'],
    ['ETIMEDOUT', 'timeout'],
    ['EPROTO', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls'],
  ])('%s → %s', (code, expected) => {
    expect(classifyNetworkError(Object.assign(new Error('x'), { code }))).toBe(expected);
  });

  it('reads the code of the first error of an AggregateError (happy eyeballs)', () => {
    const inner = Object.assign(new Error('x'), { code: 'ECONNREFUSED' });
    expect(classifyNetworkError(new AggregateError([inner]))).toBe('connection');
    expect(classifyNetworkError(new Error('no code'))).toBe('connection');
    expect(classifyNetworkError('weird')).toBe('connection');
  });
});

describe('assessTarget (creation time)', () => {
  it('accepts a name whose addresses are all public', async () => {
    expect(
      await assessTarget(
        'https://hooks.example.com/in',
        live,
        fakeLookup({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::248'] }),
      ),
    ).toEqual({ ok: true });
  });

  it('refuses the static cases and names that resolve to a forbidden address', async () => {
    expect(await assessTarget('http://hooks.example.com/', live, fakeLookup({}))).toEqual({
      ok: false,
      reason: 'must use https in live mode',
    });
    expect(await assessTarget('https://127.0.0.1/', live, fakeLookup({}))).toEqual({ ok: false, reason: 'target is a loopback address' });
    expect(await assessTarget('https://internal.example/', live, fakeLookup({ 'internal.example': ['10.1.2.3'] }))).toEqual({
      ok: false,
      reason: 'internal.example resolves to a private address',
    });
    expect(
      await assessTarget('https://mixed.example/', live, fakeLookup({ 'mixed.example': ['93.184.216.34', '::ffff:192.168.0.1'] })),
    ).toEqual({
      ok: false,
      reason: 'mixed.example resolves to a private address',
    });
    expect(await assessTarget('http://meta.test/', local, fakeLookup({ 'meta.test': ['169.254.169.254'] }))).toEqual({
      ok: false,
      reason: 'meta.test resolves to a cloud metadata address',
    });
  });

  it('does not refuse a name that does not resolve (yet), or a resolver that is too slow', async () => {
    expect(await assessTarget('https://not-yet.example/', live, fakeLookup({}))).toEqual({ ok: true });
    expect(await assessTarget('https://slow.example/', live, () => new Promise(() => undefined), 50)).toEqual({ ok: true });
  });

  it('allows a local name in local test mode after checking what it resolves to', async () => {
    expect(await assessTarget('http://localhost:4000/', local)).toEqual({ ok: true });
    expect(await assessTarget('http://localhost:4000/', { requireHttps: false, allowPrivate: false })).toEqual({
      ok: false,
      reason: 'target is a loopback address',
    });
  });
});
