import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { logger } from '../../observability/logger';
import type { WebRouteDefinition } from '../../routes/route';
import { corsSettings } from '../cors';
import { jsonResponse, type HttpResponse } from '../response';
import { OAuthProblem } from './oauth-problem';
import { oauthErrorDescription } from '../../core/oauth/oauth-formats';

/** Token answers and errors are never cached (RFC 6749 5.1). */
const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const problemResponse = (problem: OAuthProblem): HttpResponse =>
  jsonResponse(
    problem.status,
    { error: problem.error, error_description: oauthErrorDescription(problem.description) },
    {
      ...noStore,
      // RFC 6749 5.2: a failed client authentication names the scheme to use.
      ...(problem.status === 401 ? { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' } : {}),
    },
  );

/**
 * The one shape of the authorization server's machine endpoints: RFC 6749 error objects instead of
 * the API's envelope, no caching, a request id, CORS like the API (browser apps call them too).
 */
export const createOAuthHandler =
  (route: WebRouteDefinition, handle: (event: APIGatewayProxyEventV2) => Promise<HttpResponse>) =>
  async (event: APIGatewayProxyEventV2, _context?: Context): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    logger.setCorrelationId(requestId);
    const started = performance.now();
    let response: HttpResponse;
    try {
      const answered = await handle(event);
      // An answer that says how it may be cached (the metadata document) says it alone: no Pragma beside it.
      response = answered.headers['Cache-Control'] ? answered : { ...answered, headers: { ...noStore, ...answered.headers } };
    } catch (error) {
      if (!(error instanceof OAuthProblem)) logger.error('unexpected failure', { operation: route.operationId, error: error as Error });
      response = problemResponse(
        error instanceof OAuthProblem ? error : new OAuthProblem('server_error', 'Something went wrong on our side. Retry later.'),
      );
    }
    logger.info('request', {
      operation: route.operationId,
      status: response.statusCode,
      duration_ms: Math.round(performance.now() - started),
    });
    return {
      ...response,
      headers: {
        ...response.headers,
        'X-Request-Id': requestId,
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': corsSettings.allowOrigins.join(','),
        'Access-Control-Expose-Headers': corsSettings.exposeHeaders.join(', '),
      },
    };
  };
