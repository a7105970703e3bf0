import * as v from 'valibot';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ApiError } from '../core/errors';
import type { PageMeta } from '../core/pagination';
import type { Principal } from '../core/tenancy';
import { type AnyRoute, refusesBody } from '../routes/route';
import { corsSettings } from './cors';
import type { AuthDeps } from './middlewares/authenticate';
import type { RequestSteps } from './request-steps';
import { logger } from '../observability/logger';
import { recordRequest } from '../observability/metrics';
import { logApiRequest } from '../observability/request-log';
import { type ApiContext, authenticate } from './middlewares/authenticate';
import { emptyResponse, errorResponse, type HttpResponse, internalError, jsonResponse } from './response';
import { parseWith, refuseRepeatedParameters } from './validation';
import { paginationLinks, baseUrl } from './links';

/** The parsed value of an optional schema; `never` where the route has none. */
type Out<S> = [Exclude<S, undefined>] extends [never] ? never : v.InferOutput<Exclude<S, undefined> & v.GenericSchema>;

export interface ApiRequest<R extends AnyRoute> {
  params: Out<R['params']>;
  query: Out<R['query']>;
  body: Out<R['body']>;
  /** The caller; set on every route that requires a scope. */
  principal: Principal;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

/** What a use-case adapter answers; the envelope, headers and status come from the route. */
export type Reply =
  | { data: unknown; location?: string; etag?: string }
  | { response: HttpResponse }
  | { list: unknown[]; meta: PageMeta; nextCursor?: string }
  | { empty: true };

const toResponse = (route: AnyRoute, event: APIGatewayProxyEventV2, reply: Reply): HttpResponse => {
  const status = route.success.status;
  if ('response' in reply) return reply.response;
  if ('empty' in reply) return emptyResponse(204);
  if ('list' in reply) {
    return jsonResponse(status, { data: reply.list, meta: reply.meta }, { Link: paginationLinks(event, reply.meta, reply.nextCursor) });
  }
  const headers: Record<string, string> = reply.location ? { Location: `${baseUrl(event)}${reply.location}` } : {};
  if (reply.etag) headers.ETag = reply.etag;
  return jsonResponse(status, { data: reply.data }, headers);
};

/**
 * `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and a
 * `rel="deprecation"` link to what replaces the operation, on every answer of a deprecated route.
 */
export const deprecationHeaders = (route: AnyRoute): Record<string, string> => {
  const { deprecation } = route;
  if (!deprecation) return {};
  return {
    Deprecation: `@${Math.floor(Date.parse(deprecation.since) / 1000)}`,
    ...(deprecation.sunset ? { Sunset: new Date(deprecation.sunset).toUTCString() } : {}),
    ...(deprecation.link ? { Link: `<${deprecation.link}>; rel="deprecation"; type="text/html"` } : {}),
  };
};

export const withRequestId = (response: HttpResponse, requestId: string): HttpResponse => ({
  ...response,
  headers: {
    ...response.headers,
    'X-Request-Id': requestId,
    // API answers are never cached; the reference page and its assets say otherwise themselves.
    'Cache-Control': response.headers['Cache-Control'] ?? 'no-store',
    // Set by API Gateway's CORS in AWS too; repeated here so every answer carries them.
    'Access-Control-Allow-Origin': corsSettings.allowOrigins.join(','),
    'Access-Control-Expose-Headers': corsSettings.exposeHeaders.join(', '),
  },
});

/** The query of an operation that takes no parameters: any parameter is unknown (422), as on every other operation. */
const noParameters = v.strictObject({});

/** Every authenticated POST takes `Idempotency-Key`. */
export const takesIdempotencyKey = (route: AnyRoute): boolean => route.method === 'POST' && route.scope !== null;

/**
 * The one shape of every API function: request id and error envelope around authentication,
 * body checks, idempotency and validation, then the route's own adapter. The body checks and
 * idempotency come in `steps` (`request-steps.ts`), so a function whose route takes neither
 * does not carry them; a route that takes one and was not given it fails on its first request.
 */
export const createApiHandler = <R extends AnyRoute>(
  route: R,
  handle: (request: ApiRequest<R>) => Promise<Reply>,
  deps: () => AuthDeps,
  steps: RequestSteps = {},
) => {
  const buildPipeline = () => {
    const pipeline = middy<APIGatewayProxyEventV2, HttpResponse, Error, Context & ApiContext>().use(authenticate(route, deps));
    if (route.body || refusesBody(route)) {
      if (!steps.jsonBody) throw new Error(`${route.operationId} checks a JSON body: build its function with apiHandler`);
      for (const step of steps.jsonBody({ takesNone: !route.body })) pipeline.use(step);
    }
    if (takesIdempotencyKey(route)) {
      if (!steps.idempotency) throw new Error(`${route.operationId} takes Idempotency-Key: build its function with apiHandler`);
      pipeline.use(steps.idempotency());
    }
    return pipeline.handler(async (event, context) => {
      refuseRepeatedParameters(event.rawQueryString);
      const request = {
        params: route.params ? parseWith(route.params, event.pathParameters ?? {}, 'params') : undefined,
        query: route.query
          ? parseWith(route.query, event.queryStringParameters ?? {}, 'query')
          : void parseWith(noParameters, event.queryStringParameters ?? {}, 'query'),
        body: route.body ? parseWith(route.body, event.body, 'body') : undefined,
        principal: context.principal as Principal,
        requestId: event.requestContext.requestId,
        event,
      } as ApiRequest<R>;
      return toResponse(route, event, await handle(request));
    });
  };
  // Built by the first request, not at import: a cold start does nothing but build its clients.
  let inner: ReturnType<typeof buildPipeline> | undefined;

  return async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    logger.setCorrelationId(requestId);
    const started = performance.now();
    let response: HttpResponse;
    try {
      inner ??= buildPipeline();
      response = await inner(event, context as Context & ApiContext);
    } catch (error) {
      if (!(error instanceof ApiError)) logger.error('unexpected failure', { operation: route.operationId, error: error as Error });
      response = errorResponse(error instanceof ApiError ? error : internalError(), requestId);
    }
    const rateHeaders = (context as Context & ApiContext).rateLimitHeaders;
    const { Link: deprecationLink, ...deprecation } = deprecationHeaders(route);
    const headers = { ...response.headers, ...rateHeaders, ...deprecation };
    if (deprecationLink) headers.Link = headers.Link ? `${headers.Link}, ${deprecationLink}` : deprecationLink;
    response = { ...response, headers };
    const principal = (context as Context & ApiContext).principal;
    logApiRequest(
      {
        request_id: requestId,
        at: new Date().toISOString(),
        account_id: principal?.accountId,
        mode: principal?.mode,
        method: event.requestContext.http.method,
        path: event.rawPath,
        status: response.statusCode,
        duration_ms: Math.round(performance.now() - started),
        credential_id: principal?.credentialId,
        credential_hint: principal?.credentialHint,
      },
      route.operationId,
    );
    recordRequest(route.operationId, response.statusCode);
    return withRequestId(response, requestId);
  };
};
