import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { type PeopleDeps, peopleDeps } from '../../adapters/dynamodb/people-deps';
import type { WebRouteDefinition } from '../../routes/route';
import { type AccessLevel, createPageHandler, type PageOptions, type PageRequest, type PageResult } from './page-handler';

let deps: PeopleDeps | undefined;

/** Everything a page may use, on this deployment's table; built once per function instance. */
export const pageDepsFromEnvironment = (): PeopleDeps => (deps ??= peopleDeps(tableFromEnvironment()));

/** A page function of this deployment. */
export const pageHandler = (
  route: WebRouteDefinition,
  access: AccessLevel,
  handle: (request: PageRequest) => Promise<PageResult>,
  options: PageOptions = {},
) => createPageHandler(route, access, handle, pageDepsFromEnvironment, options);
