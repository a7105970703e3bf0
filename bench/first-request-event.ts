import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The event of a function's first request in the cold-init probe: its route's method and path
 * (`{name}` parameters filled in), no credential, no cookie, no body. Every function answers it
 * without the table or any other service: the API's 401, the authorization server's and the
 * pages' own refusals or redirects, the fallback's 404. It runs the whole request pipeline a real
 * first request runs before its first database call (logger, metrics, middy, validation), so what
 * a function defers from import to its first request is counted here.
 */
export const firstRequestEvent = (method: string, templatePath: string): APIGatewayProxyEventV2 => {
  const pathParameters: Record<string, string> = {};
  const path = templatePath.replace(/\{([^/}]+)\}/g, (_whole, name: string) => (pathParameters[name] = `bench_${name}`));
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${method} ${templatePath}`,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'bench.invalid', 'user-agent': 'bench' },
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'bench.invalid',
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench-first-request',
      routeKey: `${method} ${templatePath}`,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    isBase64Encoded: false,
  };
};
