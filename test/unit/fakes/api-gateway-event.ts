import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface EventOptions {
  method: string;
  /** Path with an optional query string: `/v1/projects?page=2`. */
  path: string;
  /** Header names as sent; API Gateway lowercases them, and so does this builder. */
  headers?: Record<string, string>;
  /** A JSON value (sent as `application/json` unless a content type is given) or a raw string. */
  json?: unknown;
  raw?: string;
  pathParameters?: Record<string, string>;
  requestId?: string;
  isBase64Encoded?: boolean;
}

let sequence = 0;

/** An API Gateway HTTP API (payload 2.0) event, the way API Gateway and the local server build it. */
export const apiEvent = (options: EventOptions): APIGatewayProxyEventV2 => {
  const [rawPath = '/', rawQueryString = ''] = options.path.split('?', 2);
  const headers: Record<string, string> = { host: 'api.example.test', 'x-forwarded-proto': 'https' };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  let body = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const query = new URLSearchParams(rawQueryString);
  const queryStringParameters = Object.fromEntries([...query.keys()].map((key) => [key, query.getAll(key).join(',')]));
  const requestId = options.requestId ?? `req-${++sequence}`;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers,
    queryStringParameters: rawQueryString ? queryStringParameters : undefined,
    pathParameters: options.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      http: { method: options.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'unit-test' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:10:00:00 +0000',
      timeEpoch: Date.parse('2026-11-21T10:00:00.000Z'),
    },
    body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
};

/** A Lambda context without a deadline, so middy sets no early-timeout timer. */
export const lambdaContext = { awsRequestId: 'lambda-request', functionName: 'unit' } as Context;
