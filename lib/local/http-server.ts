import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { corsSettings } from '../../functions/http/cors';
import { fallbackHandler, matchRoute } from '../../functions/routes';
import { toApiGatewayEvent } from './api-gateway-event';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses larger payloads before any function runs. */
const gatewayPayloadLimit = 10 * 1024 * 1024;

const handlers = new Map<string, Promise<LambdaHandler>>();

let textLoaderRegistered = false;

/** Page modules import their stylesheet as text, as esbuild's `text` loader bundles it for Lambda. */
const registerTextLoader = (): void => {
  if (textLoaderRegistered) return;
  register(new URL('./text-loader.mjs', import.meta.url));
  textLoaderRegistered = true;
};

/** The same handler modules Lambda runs, imported once each, as a warm function would be. */
const loadHandler = (name: string): Promise<LambdaHandler> => {
  let loading = handlers.get(name);
  if (!loading) {
    loading = import(`../../functions/handlers/${name}.ts`).then((module: { handler: LambdaHandler }) => module.handler);
    handlers.set(name, loading);
  }
  return loading;
};

const lambdaContext = (requestId: string): Context =>
  ({
    awsRequestId: requestId,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 10_000,
  }) as Context;

const readBody = (request: IncomingMessage): Promise<Buffer | 'too_large'> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= gatewayPayloadLimit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > gatewayPayloadLimit ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** API Gateway's own CORS answer to a preflight request. */
const answerPreflight = (response: ServerResponse): void => {
  response.writeHead(204, {
    'Access-Control-Allow-Origin': corsSettings.allowOrigins.join(','),
    'Access-Control-Allow-Methods': corsSettings.allowMethods.join(','),
    'Access-Control-Allow-Headers': corsSettings.allowHeaders.join(','),
    'Access-Control-Max-Age': String(corsSettings.maxAgeSeconds),
  });
  response.end();
};

const writeResult = (response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void => {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  headers['Content-Length'] = String(body.length);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(body);
};

const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
  const method = (request.method ?? 'GET').toUpperCase();
  if (method === 'OPTIONS' && request.headers['access-control-request-method']) return answerPreflight(response);

  const body = await readBody(request);
  if (body === 'too_large') {
    writeResult(response, {
      statusCode: 413,
      headers: { 'Content-Type': 'application/json' },
      body: '{"message":"Request Entity Too Large"}',
    });
    return;
  }
  const path = new URL(request.url ?? '/', 'http://local').pathname;
  const { route, params } = matchRoute(method, path);
  const event = toApiGatewayEvent(request, body, {
    routeKey: route ? `${route.method} ${route.path}` : '$default',
    pathParameters: params,
  });
  const handler = await loadHandler(route ? route.handler : fallbackHandler);
  writeResult(response, await handler(event, lambdaContext(event.requestContext.requestId)));
};

export interface LocalHttpServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Serves the route table on 127.0.0.1 the way API Gateway would. */
export const startHttpServer = async (port: number, host = '127.0.0.1'): Promise<LocalHttpServer> => {
  registerTextLoader();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Handlers answer their own errors; this is the local server itself failing.
      console.error('local server error', error);
      if (!response.headersSent) writeResult(response, { statusCode: 500, body: '{"message":"Internal Server Error"}' });
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
