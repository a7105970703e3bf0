import { jsonBody } from './middlewares/body-guard';
import { idempotency, type IdempotencyDeps } from './middlewares/idempotency';

/**
 * The steps of the pipeline only some routes take: the JSON body checks (routes with a body) and
 * `Idempotency-Key` (authenticated POSTs). A function passes them to `createApiHandler` only when
 * its route takes them, so a read carries neither the body parser nor the idempotency store.
 */
export interface RequestSteps {
  jsonBody?: typeof jsonBody;
  idempotency?: () => ReturnType<typeof idempotency>;
}

/** Both steps, for a route with a body or one that takes `Idempotency-Key`. */
export const writeSteps = (deps: () => IdempotencyDeps): RequestSteps => ({
  jsonBody,
  idempotency: () => idempotency(deps),
});
