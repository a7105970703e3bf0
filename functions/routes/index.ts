import type * as v from 'valibot';
import { deploymentResponses, deploymentRoutes } from './deployments';
import { docsRoutes } from './docs';
import { eventResponses, eventRoutes } from './events';
import { eventComponents } from './schemas/events';
import { securityResponses, securityRoutes } from './security';
import { testingResponses, testingRoutes } from './testing';
import { metaResponses, openApiRoute } from './meta';
import { projectResponses, projectRoutes } from './projects';
import { dashboardRoutes } from './dashboard';
import { dashboardResourceRoutes } from './dashboard-resources';
import { oauthRoutes } from './oauth';
import { reviewResponses, reviewRoutes } from './reviews';
import type { AnyRoute, ResponseSchemas, TableRoute, WebRouteDefinition } from './route';
import { webhookResponses, webhookRoutes } from './webhooks';
import { workflowResponses, workflowRoutes } from './workflows';

/**
 * The API's rows of the route table (kind `api`): every `/v1` operation, once, and the reference
 * page at `/docs`. The OpenAPI document is built from these alone (`apiRoutes`).
 */
export const routes: readonly AnyRoute[] = [
  openApiRoute,
  ...projectRoutes,
  ...workflowRoutes,
  ...securityRoutes,
  ...deploymentRoutes,
  ...testingRoutes,
  ...reviewRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...docsRoutes,
];

/** The schema of each API operation's success `data`, by `operationId` (see `ResponseSchemas`). */
export const responseSchemas: ResponseSchemas = {
  ...metaResponses,
  ...projectResponses,
  ...workflowResponses,
  ...securityResponses,
  ...deploymentResponses,
  ...testingResponses,
  ...reviewResponses,
  ...eventResponses,
  ...webhookResponses,
};

/**
 * The schemas the OpenAPI document names under `components/schemas`: each answer that holds one
 * refers to it there. Every event type's data, and the event.
 */
export const componentSchemas: Record<string, v.GenericSchema> = eventComponents;

/**
 * The whole route table: the API's rows, the dashboard's pages and the OAuth authorization
 * server. The CDK stack and the local server are built from it, so no runtime serves a route the
 * other lacks.
 */
export const routeTable: readonly TableRoute[] = [...routes, ...dashboardRoutes, ...dashboardResourceRoutes, ...oauthRoutes];

/** The rows outside `/v1`: pages and the authorization server's endpoints. */
export const webRoutes: readonly WebRouteDefinition[] = [...dashboardRoutes, ...dashboardResourceRoutes, ...oauthRoutes];

/** The routes the OpenAPI document describes: every API operation (not the reference page itself). */
export const apiRoutes: readonly AnyRoute[] = routes.filter((route) => route.inOpenApi !== false);

/** The function that answers everything no route matches: 404, or 405 with `Allow`. */
export const fallbackHandler = 'meta/fallback';

const templatePattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

/** A segment that does not decode is kept as sent: it then names nothing (404), never a fault. */
const decodedSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const compiled = routeTable.map((route) => ({ route, pattern: templatePattern(route.path) }));

const literalSegments = (path: string): number => path.split('/').filter((segment) => !segment.startsWith('{')).length;

/**
 * The route for a method and path, and the methods the path allows. The most specific paths win,
 * whatever the method: `/v1/tests/run` is POST's alone, so `GET /v1/tests/run` is 405 with
 * `Allow: POST`, not a look-up of a test named `run`.
 */
export const matchRoute = (method: string, path: string): { route?: TableRoute; params: Record<string, string>; allowed: string[] } => {
  const candidates = compiled.filter(({ pattern }) => pattern.test(path));
  const specificity = Math.max(...candidates.map(({ route }) => literalSegments(route.path)));
  const matching = candidates.filter(({ route }) => literalSegments(route.path) === specificity);
  const hit = matching.find(({ route }) => route.method === method);
  const params: Record<string, string> = {};
  if (hit) {
    const segments = path.split('/');
    hit.route.path.split('/').forEach((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name) params[name] = decodedSegment(segments[i] ?? '');
    });
  }
  return { route: hit?.route, params, allowed: [...new Set(matching.map(({ route }) => route.method))] };
};
