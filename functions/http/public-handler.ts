import type { AnyRoute } from '../routes/route';
import { type ApiRequest, createApiHandler, type Reply } from './pipeline';

const noCredentials = (): never => {
  throw new Error('a public route has no credential check');
};

/** A function of a route that needs no credential: no table, no SDK in its bundle. */
export const publicHandler = <R extends AnyRoute>(route: R, handle: (request: ApiRequest<R>) => Promise<Reply>) => {
  if (route.scope !== null) throw new Error(`${route.operationId} requires a scope; use apiHandler`);
  return createApiHandler(route, handle, noCredentials);
};
