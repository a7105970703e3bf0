import { dashboardRoutes } from './dashboard';
import { dashboardResourceRoutes } from './dashboard-resources';

const pages = /* @__PURE__ */ (() =>
  [...dashboardRoutes, ...dashboardResourceRoutes]
    .filter((route) => route.method === 'GET')
    .map((route) => new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`)))();

/** The nearest dashboard page at or above `path`: an action's address without its last segments. */
export const dashboardPageAbove = (path: string): string => {
  let candidate = path;
  while (candidate.startsWith('/dashboard/') && !pages.some((page) => page.test(candidate)))
    candidate = candidate.slice(0, candidate.lastIndexOf('/'));
  return candidate.startsWith('/dashboard/') ? candidate : '/dashboard';
};
