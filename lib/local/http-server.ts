import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Socket } from 'node:net';
import { ApiError } from '../../functions/core/errors';
import { corsSettings } from '../../functions/http/cors';
import { withRequestId } from '../../functions/http/pipeline';
import { errorResponse, type HttpResponse } from '../../functions/http/response';
import { fallbackHandler, matchRoute } from '../../functions/routes';
import { defaultRouteTimeoutSeconds } from '../../functions/routes/route';
import { newRequestId, requestTarget, toApiGatewayEvent } from './api-gateway-event';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses larger payloads before any function runs. */
const gatewayPayloadLimit = 10 * 1024 * 1024;

/** API Gateway (HTTP API) takes at most this much of request line and header values together. */
export const gatewayHeaderLimit = 10 * 1024;

/**
 * What node's parser reads before giving up: far above the gateway's limit, so that the request
 * handler sees the request and tells which limit it breaks (the parser itself cannot say).
 */
const parserHeaderLimit = 8 * 1024 * 1024;

/** The errors API Gateway itself answers in AWS, here in our envelope with a request id. */
const gatewayError = (
  code: 'payload_too_large' | 'uri_too_long' | 'headers_too_large' | 'invalid_request',
  message: string,
): HttpResponse => {
  const requestId = newRequestId();
  return withRequestId(errorResponse(new ApiError(code, message), requestId), requestId);
};

const tooLong = {
  uri: () => gatewayError('uri_too_long', `The request line is longer than ${gatewayHeaderLimit} bytes; send long values in a body.`),
  headers: () => gatewayError('headers_too_large', `The request line and headers are larger than ${gatewayHeaderLimit} bytes together.`),
};

/** Which limit a request breaks, as API Gateway counts it: the request line, then line and header values together. */
const sizeProblem = (request: IncomingMessage): HttpResponse | undefined => {
  const requestLine = Buffer.byteLength(`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`);
  if (requestLine > gatewayHeaderLimit) return tooLong.uri();
  let total = requestLine;
  for (let i = 0; i < request.rawHeaders.length; i += 1) total += Buffer.byteLength(request.rawHeaders[i] as string);
  return total > gatewayHeaderLimit ? tooLong.headers() : undefined;
};

/** A whole response written on a socket the HTTP parser gave up on (no request object exists). */
const writeRaw = (socket: Socket, response: HttpResponse): void => {
  const body = Buffer.from(response.body ?? '');
  const reason = { 400: 'Bad Request', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }[response.statusCode] ?? 'Error';
  const head = [
    `HTTP/1.1 ${response.statusCode} ${reason}`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  head.push(`Content-Length: ${body.length}`, 'Connection: close');
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
};

/** The parser's own refusals (a request too large for it, malformed bytes), answered in the envelope. */
const answerClientError = (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Over even the parser's limit: the last bytes read tell whether the request line had ended.
  if (error.code === 'HPE_HEADER_OVERFLOW') return writeRaw(socket, error.rawPacket?.includes('\r\n') ? tooLong.headers() : tooLong.uri());
  writeRaw(socket, gatewayError('invalid_request', 'The request is not valid HTTP.'));
};

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

/** Counts down from the route's own time limit, as Lambda does: middy ends the request just before it. */
const lambdaContext = (requestId: string, timeoutSeconds = defaultRouteTimeoutSeconds): Context => {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    awsRequestId: requestId,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  } as Context;
};

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

  const oversized = sizeProblem(request);
  if (oversized) {
    request.resume();
    return writeResult(response, oversized);
  }
  const body = await readBody(request);
  if (body === 'too_large') {
    writeResult(response, gatewayError('payload_too_large', 'The body is larger than 10 MiB, the most the gateway accepts.'));
    return;
  }
  const { path } = requestTarget(request);
  const { route, params } = matchRoute(method, path);
  const event = toApiGatewayEvent(request, body, {
    routeKey: route ? `${route.method} ${route.path}` : '$default',
    pathParameters: params,
  });
  const handler = await loadHandler(route ? route.handler : fallbackHandler);
  writeResult(response, await handler(event, lambdaContext(event.requestContext.requestId, route?.timeoutSeconds)));
};

export interface LocalHttpServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Serves the route table on 127.0.0.1 the way API Gateway would. */
export const startHttpServer = async (port: number, host = '127.0.0.1'): Promise<LocalHttpServer> => {
  registerTextLoader();
  const server = createServer({ maxHeaderSize: parserHeaderLimit }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Handlers answer their own errors; this is the local server itself failing.
      console.error('local server error', error);
      if (!response.headersSent) writeResult(response, { statusCode: 500, body: '{"message":"Internal Server Error"}' });
    });
  });
  server.on('clientError', answerClientError);
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
