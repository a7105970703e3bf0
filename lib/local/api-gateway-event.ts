import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const textTypes = /^(application\/(.+\+)?json|application\/x-www-form-urlencoded|text\/.*)(;.*)?$/i;

/**
 * Repeated names comma-joined, as API Gateway does. Built as own properties whatever the name
 * (`__proto__` included), exactly as Lambda's JSON.parse of the event builds them: an assignment
 * would set the object's prototype instead, and the parameter would silently vanish.
 */
const joined = (pairs: Iterable<[string, string]>): Record<string, string> => {
  const values = new Map<string, string>();
  for (const [name, value] of pairs) values.set(name, values.has(name) ? `${values.get(name)},${value}` : value);
  return Object.fromEntries(values);
};

const joinedHeaders = (request: IncomingMessage): Record<string, string> => {
  const pairs: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    pairs.push([(request.rawHeaders[i] as string).toLowerCase(), request.rawHeaders[i + 1] as string]);
  return joined(pairs);
};

const joinedQuery = (rawQuery: string): Record<string, string> | undefined =>
  rawQuery ? joined(new URLSearchParams(rawQuery)) : undefined;

/**
 * The request target as sent, split at `?`: never resolved as a URL, so `//evil.example/v1/projects`
 * stays that path (and matches no route) instead of becoming `/v1/projects` on another host.
 */
export const requestTarget = (request: IncomingMessage): { path: string; query: string } => {
  const target = request.url ?? '/';
  const cut = target.indexOf('?');
  return cut === -1 ? { path: target, query: '' } : { path: target.slice(0, cut), query: target.slice(cut + 1) };
};

/** An API Gateway request id look-alike. */
export const newRequestId = (): string => randomBytes(12).toString('base64url');

/**
 * The HTTP API (payload 2.0) event API Gateway would hand the function for this request: headers
 * lower-cased and repeated values comma-joined, binary bodies base64-encoded. A body of a text type
 * whose bytes are not UTF-8 is binary too ("a text payload is a UTF-8-encoded string"), so the
 * function sees the bytes sent, not U+FFFD in their place.
 */
export const toApiGatewayEvent = (
  request: IncomingMessage,
  body: Buffer,
  route: { routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 => {
  const { path, query } = requestTarget(request);
  const headers = joinedHeaders(request);
  const method = (request.method ?? 'GET').toUpperCase();
  const isText = body.length === 0 || (textTypes.test(headers['content-type'] ?? '') && isUtf8(body));
  const now = Date.now();
  const requestId = newRequestId();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: path,
    rawQueryString: query,
    cookies: headers.cookie?.split(/;\s*/),
    headers,
    queryStringParameters: joinedQuery(query),
    pathParameters: route.pathParameters && Object.keys(route.pathParameters).length > 0 ? route.pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      // API Gateway's own domain, never the client's Host header.
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path,
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
