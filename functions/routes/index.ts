import { deploymentRoutes } from './deployments';
import { docsRoutes } from './docs';
import { eventRoutes } from './events';
import { securityRoutes } from './security';
import { testingRoutes } from './testing';
import { openApiRoute } from './meta';
import { projectRoutes } from './projects';
import type { AnyRoute } from './route';
import { webhookRoutes } from './webhooks';
import { workflowRoutes } from './workflows';

/**
 * The route table: every implemented route, once. The CDK stack, the local server and the OpenAPI
 * document are all built from it.
 */
export const routes: readonly AnyRoute[] = [
  openApiRoute,
  ...projectRoutes,
  ...workflowRoutes,
  ...securityRoutes,
  ...deploymentRoutes,
  ...testingRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...docsRoutes,
];

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

const compiled = routes.map((route) => ({ route, pattern: templatePattern(route.path) }));

const literalSegments = (path: string): number => path.split('/').filter((segment) => !segment.startsWith('{')).length;

/**
 * The route for a method and path, and the methods the path allows. The most specific paths win,
 * whatever the method: `/v1/tests/run` is POST's alone, so `GET /v1/tests/run` is 405 with
 * `Allow: POST`, not a look-up of a test named `run`.
 */
export const matchRoute = (method: string, path: string): { route?: AnyRoute; params: Record<string, string>; allowed: string[] } => {
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
