import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { renderToString } from 'preact-render-to-string';
import { ErrorPage } from '../../pages/views/error-page';
import type { HttpResponse } from '../response';
import { isSecureOrigin, publicOrigin } from './origin';
import { pageSecurityHeaders } from './security-headers';

export const isDashboardPath = (path: string): boolean => path === '/dashboard' || path.startsWith('/dashboard/');

/** The dashboard's own HTML error page for an address under /dashboard, never the API's JSON error. */
const dashboardAddressError = (
  event: APIGatewayProxyEventV2,
  requestId: string,
  status: number,
  page: { title: string; message: string },
  headers: Record<string, string> = {},
): HttpResponse => ({
  statusCode: status,
  headers: {
    'Content-Type': 'text/html; charset=utf-8',
    ...pageSecurityHeaders({ secure: isSecureOrigin(publicOrigin(event)) }),
    ...headers,
    'X-Request-Id': requestId,
  },
  body: `<!doctype html>${renderToString(ErrorPage({ ...page, requestId }))}`,
});

/** An address under /dashboard that no page answers. */
export const dashboardNotFound = (event: APIGatewayProxyEventV2, requestId: string): HttpResponse =>
  dashboardAddressError(event, requestId, 404, { title: 'Not found', message: 'No page of the dashboard has this address.' });

/** An address under /dashboard that its pages answer, sent another method (`PUT` to a list): 405 with `Allow`. */
export const dashboardMethodNotAllowed = (event: APIGatewayProxyEventV2, requestId: string, allowed: readonly string[]): HttpResponse =>
  dashboardAddressError(
    event,
    requestId,
    405,
    {
      title: 'Not allowed here',
      message: `This address of the dashboard takes ${allowed.join(' and ')}, not ${event.requestContext.http.method}: open it as a page, or send the form it shows.`,
    },
    { Allow: allowed.join(', ') },
  );
