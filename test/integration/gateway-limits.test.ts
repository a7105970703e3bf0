import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { as } from './support/http';
import { apiUrl, newAccount } from './support/runtime';

/**
 * What the gateway answers before any function runs (request line, headers, body too large; a
 * malformed target), in the local runtime: always our envelope with a request id.
 */
const origin = () => new URL(apiUrl());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

const send = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: Buffer): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = origin();
    const req = httpRequest({ host: hostname === 'localhost' ? '127.0.0.1' : hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });

/** Bytes written straight on a socket: for requests too large for the HTTP parser itself. */
const sendRaw = (head: string): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const { port } = origin();
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top = '', bodyText = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : undefined });
    });
  });

const expectEnvelope = (answer: RawAnswer, status: number, code: string): void => {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(answer.headers['x-request-id']).toEqual(expect.any(String));
  expect(answer.body.error.request_id).toBe(answer.headers['x-request-id']);
};

describe('limits the gateway enforces, answered in the envelope', () => {
  let key: string;
  beforeAll(async () => {
    key = (await newAccount()).live.key;
  });

  it('414 uri_too_long for a request line over 10 KiB (11 KiB, and 70 KiB written raw)', async () => {
    expectEnvelope(await send(`/v1/projects?cursor=${'a'.repeat(11 * 1024)}`, { Authorization: `Bearer ${key}` }), 414, 'uri_too_long');
    expectEnvelope(await sendRaw(`GET /v1/projects?cursor=${'a'.repeat(70 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`), 414, 'uri_too_long');
  });

  it('431 headers_too_large for headers over 10 KiB (11 KiB, and 70 KiB written raw)', async () => {
    expectEnvelope(
      await send('/v1/projects', { Authorization: `Bearer ${key}`, 'X-Padding': 'p'.repeat(11 * 1024) }),
      431,
      'headers_too_large',
    );
    expectEnvelope(
      await sendRaw(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(70 * 1024)}\r\n\r\n`),
      431,
      'headers_too_large',
    );
  });

  it('400 invalid_request for bytes that are not HTTP', async () => {
    expectEnvelope(await sendRaw('GET /v1/projects HTTP/1.1\r\nHost x\r\n\r\n'), 400, 'invalid_request');
  });

  it('413 payload_too_large for a body over 10 MiB', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const answer = await send('/v1/projects', { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, 'POST', body);
    expectEnvelope(answer, 413, 'payload_too_large');
  });

  it('never serves //evil.example/v1/projects as /v1/projects', async () => {
    const answer = await send('//evil.example/v1/projects', { Authorization: `Bearer ${key}` });
    expectEnvelope(answer, 404, 'not_found');
  });

  it('refuses ?__proto__=x like any unknown parameter', async () => {
    for (const name of ['__proto__', 'constructor', 'foo']) {
      const answer = await as(key).get(`/projects?${name}=x`);
      expect(answer.status).toBe(422);
      expect(answer.body.error.details).toEqual({
        field: name,
        issue: 'is not a known parameter; must be one of page, per_page, sort, order, created_after, created_before, cursor',
      });
    }
  });
});
