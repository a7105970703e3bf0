import type { AnyRoute } from '../routes/route';
import { httpDepsFromEnvironment } from './http-deps';
import { type ApiRequest, createApiHandler, type Reply } from './pipeline';

export type { ApiRequest, Reply };

/** A function of an authenticated route, on this deployment's table. */
export const apiHandler = <R extends AnyRoute>(route: R, handle: (request: ApiRequest<R>) => Promise<Reply>) =>
  createApiHandler(route, handle, httpDepsFromEnvironment);
