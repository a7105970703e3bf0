import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';

/**
 * Smart HTTP in front of `git http-backend` (the CGI program that ships with git), serving the
 * repositories under `projectRoot`. Every request must carry `Basic x-access-token:<token>`, as
 * a private repository on a forge would demand.
 */
export interface GitHttpServer {
  /** An isomorphic-git HTTP client that sends `https://git.test/...` to this server. */
  client: HttpClient;
  /** Authorization headers seen, one per request. */
  authorizations: Array<string | undefined>;
  /** How many objects each push's packfile held. */
  pushedObjectCounts: number[];
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const runBackend = (projectRoot: string, request: IncomingMessage, body: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const backend = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        // Lets receive-pack (push) through, as an authenticated user would be.
        REMOTE_USER: 'x-access-token',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(body.length),
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      },
    });
    const out: Buffer[] = [];
    backend.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    backend.on('error', reject);
    backend.stderr.on('data', (chunk: Buffer) => process.stderr.write(`http-backend: ${chunk.toString()}`));
    // The backend may answer (and exit) without reading a request body it does not need.
    backend.stdin.on('error', () => undefined);
    backend.on('close', () => resolve(Buffer.concat(out)));
    backend.stdin.end(body);
  });

export const startGitHttpServer = async (projectRoot: string, token: string): Promise<GitHttpServer> => {
  const expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const authorizations: Array<string | undefined> = [];
  const pushedObjectCounts: number[] = [];
  const server: Server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    void (async () => {
      const body = await readBody(request);
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('authentication required');
        return;
      }
      if (request.url?.endsWith('/git-receive-pack')) {
        const pack = body.indexOf('PACK');
        if (pack !== -1) pushedObjectCounts.push(body.readUInt32BE(pack + 8));
      }
      const output = await runBackend(projectRoot, request, body);
      const split = output.indexOf('\r\n\r\n');
      const headerText = output.subarray(0, split).toString('latin1');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of headerText.split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers).end(output.subarray(split + 4));
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client: HttpClient = {
    request: (request) => nodeHttp.request({ ...request, url: request.url.replace('https://git.test/', `http://127.0.0.1:${port}/`) }),
  };
  return {
    client,
    authorizations,
    pushedObjectCounts,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
};
