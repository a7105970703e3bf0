import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { renderToString } from 'preact-render-to-string';
import { ErrorPage } from '../../pages/views/error-page';
import type { HttpResponse } from '../response';
import { isSecureOrigin, publicOrigin } from './origin';
import { pageSecurityHeaders } from './security-headers';

export const isDashboardPath = (path: string): boolean => path === '/dashboard' || path.startsWith('/dashboard/');

/** An address under /dashboard that no page answers: the dashboard's own 404 page, not the API's JSON error. */
export const dashboardNotFound = (event: APIGatewayProxyEventV2, requestId: string): HttpResponse => ({
  statusCode: 404,
  headers: {
    'Content-Type': 'text/html; charset=utf-8',
    ...pageSecurityHeaders({ secure: isSecureOrigin(publicOrigin(event)) }),
    'X-Request-Id': requestId,
  },
  body: `<!doctype html>${renderToString(
    ErrorPage({ title: 'Not found', message: 'No page of the dashboard has this address.', requestId }),
  )}`,
});
