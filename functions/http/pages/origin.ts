import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RequestOrigin } from '../../core/audit/audit';

/**
 * The service's public origin: `PUBLIC_ORIGIN` when set (the local runtime sets the one it prints,
 * `http://localhost:<port>`; a deployment behind a custom domain may set its own), else the API's
 * own domain, which API Gateway names in the request context (never the client's Host header).
 */
export const publicOrigin = (event: APIGatewayProxyEventV2): string =>
  process.env.PUBLIC_ORIGIN?.replace(/\/+$/, '') || `https://${event.requestContext.domainName}`;

export const isSecureOrigin = (origin: string): boolean => origin.startsWith('https://');

/** Where a request came from, for audit records and sign-in throttling. */
export const requestOriginOf = (event: APIGatewayProxyEventV2): RequestOrigin => ({
  ip: event.requestContext.http.sourceIp || null,
  userAgent: event.headers['user-agent'] ?? null,
});

/**
 * A place to return to after sign-in: a path of this service's dashboard or authorization page,
 * never another site (`//evil.example` and `/\evil.example` are other sites to a browser).
 */
export const safeReturnPath = (value: string | null | undefined): string | undefined => {
  if (!value || value.length > 4000 || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  let url: URL;
  try {
    url = new URL(value, 'http://return.invalid');
  } catch {
    return undefined;
  }
  if (url.origin !== 'http://return.invalid') return undefined;
  const path = `${url.pathname}${url.search}`;
  return url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/') || url.pathname === '/oauth/authorize' ? path : undefined;
};
