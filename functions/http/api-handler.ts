import type { AnyRoute } from '../routes/route';
import { authDepsFromEnvironment, httpDepsFromEnvironment } from './http-deps';
import { type ApiRequest, createApiHandler, type Reply } from './pipeline';
import { writeSteps } from './request-steps';

export type { ApiRequest, Reply };

/** A function of an authenticated route that takes a body or `Idempotency-Key` (POST, PATCH), on this deployment's table. */
export const apiHandler = <R extends AnyRoute>(route: R, handle: (request: ApiRequest<R>) => Promise<Reply>) =>
  createApiHandler(route, handle, httpDepsFromEnvironment, writeSteps(httpDepsFromEnvironment));

/**
 * A function of an authenticated route that reads only its path and query (GET, DELETE): no body
 * checks and no idempotency store in its bundle. A POST given here fails on its first request.
 */
export const apiReadHandler = <R extends AnyRoute & { body?: undefined }>(route: R, handle: (request: ApiRequest<R>) => Promise<Reply>) =>
  createApiHandler(route, handle, authDepsFromEnvironment);
