import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const textTypes = /^(application\/(.+\+)?json|application\/x-www-form-urlencoded|text\/.*)(;.*)?$/i;

const joinedHeaders = (request: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = (request.rawHeaders[i] as string).toLowerCase();
    const value = request.rawHeaders[i + 1] as string;
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  return headers;
};

const joinedQuery = (rawQuery: string): Record<string, string> | undefined => {
  if (!rawQuery) return undefined;
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    params[name] = params[name] === undefined ? value : `${params[name]},${value}`;
  }
  return params;
};

/** An API Gateway request id look-alike. */
export const newRequestId = (): string => randomBytes(12).toString('base64url');

/**
 * The HTTP API (payload 2.0) event API Gateway would hand the function for this request: headers
 * lower-cased and repeated values comma-joined, binary bodies base64-encoded.
 */
export const toApiGatewayEvent = (
  request: IncomingMessage,
  body: Buffer,
  route: { routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 => {
  const url = new URL(request.url ?? '/', 'http://local');
  const headers = joinedHeaders(request);
  const method = (request.method ?? 'GET').toUpperCase();
  const isText = body.length === 0 || textTypes.test(headers['content-type'] ?? '');
  const now = Date.now();
  const requestId = newRequestId();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: joinedQuery(url.search.slice(1)),
    pathParameters: route.pathParameters && Object.keys(route.pathParameters).length > 0 ? route.pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      // API Gateway's own domain, never the client's Host header.
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
};
