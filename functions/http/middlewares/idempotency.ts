import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Clock } from '../../core/clock';
import { ApiError } from '../../core/errors';
import { checkIdempotencyKey, claimIdempotencyKey, type IdempotencyStore, requestFingerprint } from '../../core/idempotency';
import type { Tenant } from '../../core/tenancy';
import { statusOf } from '../error-status';
import { errorResponse, type HttpResponse } from '../response';
import type { ApiContext } from './authenticate';

export interface IdempotencyDeps {
  idempotency: IdempotencyStore;
  clock: Clock;
}

type Internal = { idempotency?: { tenant: Tenant; key: string } };

/**
 * `Idempotency-Key` on a POST: the same key and request within 24 h replays the first answer
 * (`Idempotent-Replayed: true`); answers of 500 are not kept, so the caller can retry them.
 */
export const idempotency = (
  deps: () => IdempotencyDeps,
): middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext & Internal> => ({
  before: async (request) => {
    const header = request.event.headers['idempotency-key'];
    const tenant = request.context.principal;
    if (header === undefined || !tenant) return undefined;
    const key = checkIdempotencyKey(header);
    const { http } = request.event.requestContext;
    const fingerprint = requestFingerprint(
      http.method,
      request.event.rawPath,
      request.event.body ?? null,
      request.event.rawQueryString ?? '',
    );
    const decision = await claimIdempotencyKey(deps().idempotency, tenant, key, fingerprint, deps().clock.now());
    if (decision !== 'proceed') {
      return { ...decision, headers: { ...decision.headers, 'Idempotent-Replayed': 'true' } };
    }
    request.context.idempotency = { tenant, key };
    return undefined;
  },
  after: async (request) => {
    const claim = request.context.idempotency;
    if (!claim || !request.response) return;
    const { statusCode, headers, body } = request.response;
    await deps().idempotency.complete(claim.tenant, claim.key, { statusCode, headers, body: body ?? '' }, deps().clock.now());
  },
  onError: async (request) => {
    const claim = request.context.idempotency;
    if (!claim) return;
    const { error } = request;
    if (error instanceof ApiError && statusOf(error) < 500) {
      const requestId = request.event.requestContext.requestId;
      const stored = errorResponse(error, requestId);
      await deps().idempotency.complete(claim.tenant, claim.key, { ...stored, body: stored.body ?? '' }, deps().clock.now());
    } else {
      await deps().idempotency.release(claim.tenant, claim.key);
    }
  },
});
