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

/** The route for a method and path, and the methods the path allows. */
export const matchRoute = (method: string, path: string): { route?: AnyRoute; params: Record<string, string>; allowed: string[] } => {
  const matching = compiled.filter(({ pattern }) => pattern.test(path));
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
