import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../../core/errors';
import { dashboardNotFound, isDashboardPath } from '../../http/pages/not-found-page';
import { withRequestId } from '../../http/pipeline';
import { errorResponse, type HttpResponse } from '../../http/response';
import { matchRoute } from '../../routes';

/**
 * API Gateway's `$default` route: whatever no route matched. A known path with another method is
 * 405 with `Allow`; anything else is 404. Both in the error envelope, never API Gateway's own body;
 * a page address under /dashboard that no page answers gets the dashboard's HTML 404 instead.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const { method, path } = event.requestContext.http;
  const { allowed } = matchRoute(method, path);
  if (allowed.length === 0 && method === 'GET' && isDashboardPath(path)) return dashboardNotFound(event, event.requestContext.requestId);
  const error =
    allowed.length > 0
      ? new ApiError('method_not_allowed', `${path} does not allow ${method}; it allows ${allowed.join(', ')}.`, undefined, {
          Allow: allowed.join(', '),
        })
      : new ApiError('not_found', `No route ${method} ${path}. See /v1/openapi.json for every route.`);
  return withRequestId(errorResponse(error, event.requestContext.requestId), event.requestContext.requestId);
};
