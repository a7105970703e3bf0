import type * as v from 'valibot';
import type { Scope } from '../core/credentials/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type AnySchema = v.GenericSchema<unknown, unknown>;

export interface ResponseSpec {
  description: string;
  /** `data` is an array of the operation's response schema and `meta` carries the page numbers. */
  list?: boolean;
  /**
   * The body is a representation of this media type instead of the JSON envelope (`text/x-diff`),
   * with the operation's response schema its schema (a string); errors are still the JSON envelope.
   */
  mediaType?: string;
}

/**
 * The schema of each operation's success `data`, by `operationId`; an operation with no body (204)
 * has none. Only the OpenAPI document reads them, so they sit beside the rows in a map of their own
 * (`projectResponses`, …, gathered in `responseSchemas`): a function imports its row without them
 * and builds no response schema while it starts (up to 1.2 % of a function's import instructions,
 * docs/performance.md).
 */
export type ResponseSchemas = Record<string, AnySchema>;

/** A route function's time limit unless its row says otherwise (Lambda, and the local server's context). */
export const defaultRouteTimeoutSeconds = 10;

/**
 * What a route's function may reach beyond its own log group: the same flags for every kind of
 * route, so the CDK stack binds them without knowing the kind.
 */
export interface RouteBindings {
  /**
   * The CDK stack the route's function lives in (`lib/domain-stack.ts`): for an API row its tag
   * unless given. A route of a new domain lands in a stack of its own, with no change to `lib/`.
   */
  domain?: string;
  /**
   * What the function may do to the table (least privilege in the stack): `read`; `session`, a
   * page read, which may also update its session item (last use) and nothing else; `write`.
   */
  tableAccess: 'none' | 'read' | 'session' | 'write';
  /** Function timeout when the default (`defaultRouteTimeoutSeconds`) is too short. */
  timeoutSeconds?: number;
  /** Queues webhook delivery attempts (needs the delivery queue in AWS). */
  sendsDeliveries?: boolean;
  /** Starts or stops workflow executions (needs the workflow state machine). */
  workflowExecutions?: 'start' | 'stop';
  /** Starts deployment executions (needs the deployment state machine). */
  deploymentExecutions?: boolean;
  /** Starts scans or remediations (invokes the security function asynchronously). */
  startsSecurityJobs?: boolean;
  /** Starts test generations or runs (invokes the tests function asynchronously). */
  startsTestJobs?: boolean;
  /** Starts code reviews (invokes the review function asynchronously). */
  startsReviewJobs?: boolean;
  /** Sends e-mail to people (invitations): SES in AWS, the outbox locally. */
  sendsEmail?: boolean;
  /** Reads remediation patches (the `findings/` prefix of the artifact bucket in AWS, the local runtime's artifact folder locally). */
  readsFindingPatches?: boolean;
  /** Reads the API's request log (Logs Insights on the API's log group in AWS, the local runtime's file locally). */
  readsRequestLog?: boolean;
}

/**
 * One row of the route table. The CDK stack, the local server and the OpenAPI document are all
 * built from these rows. This is a `kind: 'api'` row: a `/v1` operation in the JSON envelope.
 */
export interface RouteDefinition<
  TParams extends AnySchema | undefined = AnySchema | undefined,
  TQuery extends AnySchema | undefined = AnySchema | undefined,
  TBody extends AnySchema | undefined = AnySchema | undefined,
> extends RouteBindings {
  kind?: 'api';
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  method: HttpMethod;
  /** Full path under the API's root, with `{name}` parameters: `/v1/projects/{id}`. */
  path: string;
  /** Entry module of the Lambda function, relative to `functions/handlers`, without extension. */
  handler: string;
  /** The one scope a credential needs; null for the few public routes. */
  scope: Scope | null;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  /** Every field is optional, so the body may be left out: OpenAPI marks it not required. (A blank body reads as `{}` for every operation.) */
  optionalBody?: boolean;
  /** Status of the success answer and what it carries. */
  success: { status: 200 | 201 | 202 | 204 } & ResponseSpec;
  /**
   * The resource has an entity tag (`ETag`, the SHA-256 of its `data`): every success answer carries
   * it; a GET takes `If-None-Match` (304 while it is current), a PATCH or DELETE `If-Match` (412 once
   * the resource has changed, and nothing is written).
   */
  entityTag?: true;
  /** Error statuses this route can answer beyond the ones every authenticated route can. */
  errors?: number[];
  /**
   * Set once the operation is deprecated: every answer then carries `Deprecation` (RFC 9745), and
   * `Sunset` (RFC 8594) once the date it stops working is fixed; the OpenAPI operation is marked
   * `deprecated`. Dates are ISO 8601 (`2027-01-31T00:00:00Z`).
   */
  deprecation?: { since: string; sunset?: string; link?: string };
  /** False for the few routes that are not API operations (the reference page and its assets). */
  inOpenApi?: false;
  /** Files of packages the function reads at run time, shipped beside its bundle: `{ redoc: ['bundles/x.js'] }`. */
  shippedFiles?: Record<string, string[]>;
}

/**
 * A row of the route table. Domain modules mark each call `@__PURE__` and keep
 * request bodies and list queries in their own modules (`schemas/<domain>-bodies.ts`,
 * `-queries.ts`, declared free of side effects by `schemas/package.json`): esbuild then drops the
 * routes a function does not serve, and with them the schemas only those routes use, so a
 * function's cold start builds its own route's schemas alone.
 */
export const defineRoute = <
  TParams extends AnySchema | undefined = undefined,
  TQuery extends AnySchema | undefined = undefined,
  TBody extends AnySchema | undefined = undefined,
>(
  route: RouteDefinition<TParams, TQuery, TBody>,
): RouteDefinition<TParams, TQuery, TBody> => route;

export type AnyRoute = RouteDefinition<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined>;

/**
 * A POST whose route declares no body (an action: cancel, rollback…) still checks one, so that a
 * body sent to it is refused (415, 400, 422 naming its fields) rather than silently ignored; `{}`
 * and a blank body pass. GET and DELETE read no body, and their functions carry no body parser.
 */
export const refusesBody = (route: AnyRoute): boolean => route.body === undefined && route.method === 'POST';

/**
 * The other kinds of row, outside `/v1` and outside the OpenAPI document:
 * - `page`: HTML rendered on the server, signed-in by a session cookie, form bodies, a CSRF token
 *   on every state-changing form, the pages' security headers (`functions/http/pages`).
 * - `oauth`: the authorization server's machine endpoints, JSON answers and RFC 6749 error
 *   objects, JSON or form bodies (`functions/http/oauth`).
 */
export interface WebRouteDefinition extends RouteBindings {
  kind: 'page' | 'oauth';
  /** These rows have no tag: the domain (stack) is always named, `Dashboard` or `OAuth`. */
  domain: string;
  /** Names the function in the stack, as an API route's operationId does. */
  operationId: string;
  summary: string;
  method: HttpMethod;
  /** Full path from the origin: `/dashboard/sign-in`, `/oauth/token`. */
  path: string;
  /** Entry module of the Lambda function, relative to `functions/handlers`, without extension. */
  handler: string;
}

export const defineWebRoute = (route: WebRouteDefinition): WebRouteDefinition => route;

/** Any row of the route table, whatever its kind. */
export type TableRoute = AnyRoute | WebRouteDefinition;

export const kindOf = (route: TableRoute): 'api' | 'page' | 'oauth' => route.kind ?? 'api';
