import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../../core/errors';
import { dashboardMethodNotAllowed, dashboardNotFound, isDashboardPath } from '../../http/pages/address-error-pages';
import { withRequestId } from '../../http/pipeline';
import { dashboardPageAbove } from '../../routes/dashboard-page-above';
import { errorResponse, type HttpResponse, jsonResponse } from '../../http/response';
import { matchRoute } from '../../routes';

/**
 * API Gateway's `$default` route: whatever no route matched. A known path with another method is
 * 405 with `Allow`; anything else is 404. Both in the error envelope, never API Gateway's own body.
 * An address under /dashboard gets the dashboard's HTML error page instead (a person's browser is
 * there): 404 when no page answers it, 405 with `Allow` for another method (`PUT` to a list); and
 * the address of a dashboard action opened as a page (a mode switch on a confirmation the action
 * answered, `/dashboard/sign-out` typed in) goes to the page the action belongs to.
 */
const oauthEndpoints = new Set(['/oauth/token', '/oauth/revoke']);

export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const { method, path } = event.requestContext.http;
  const { allowed } = matchRoute(method, path);
  if (isDashboardPath(path)) {
    if (allowed.length === 0) return dashboardNotFound(event, event.requestContext.requestId);
    if (method !== 'GET') return dashboardMethodNotAllowed(event, event.requestContext.requestId, allowed);
    return withRequestId(
      { statusCode: 303, headers: { Location: dashboardPageAbove(path), 'Cache-Control': 'no-store' }, body: '' },
      event.requestContext.requestId,
    );
  }
  // The authorization server's machine endpoints answer as RFC 6749 does, even to a wrong method.
  if (allowed.length > 0 && oauthEndpoints.has(path)) {
    return withRequestId(
      jsonResponse(
        405,
        { error: 'invalid_request', error_description: `Send ${allowed.join(' or ')} to ${path}.` },
        { Allow: allowed.join(', '), 'Cache-Control': 'no-store' },
      ),
      event.requestContext.requestId,
    );
  }
  const error =
    allowed.length > 0
      ? new ApiError('method_not_allowed', `${path} does not allow ${method}; it allows ${allowed.join(', ')}.`, undefined, {
          Allow: allowed.join(', '),
        })
      : new ApiError('not_found', `No route ${method} ${path}. See /v1/openapi.json for every route.`);
  return withRequestId(errorResponse(error, event.requestContext.requestId), event.requestContext.requestId);
};
