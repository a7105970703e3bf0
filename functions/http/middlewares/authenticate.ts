import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Clock } from '../../core/clock';
import type { CredentialLookup } from '../../core/credentials/credential';
import { resolveCredential } from '../../core/credentials/resolve-credential';
import { ApiError } from '../../core/errors';
import type { GrantStandingReader } from '../../core/oauth/grant-standing';
import { rateLimitHeaders, type RateLimiter } from '../../core/rate-limiter';
import type { Principal } from '../../core/tenancy';
import type { AnyRoute } from '../../routes/route';
import type { HttpResponse } from '../response';

export interface AuthDeps {
  credentials: CredentialLookup;
  /** Judges OAuth access tokens; without it they are refused. */
  oauthGrants?: GrantStandingReader;
  clock: Clock;
  rateLimiter: RateLimiter;
}

export type ApiContext = {
  principal?: Principal;
  /** `RateLimit-Policy` and `RateLimit` of this request, sent with whatever it answers. */
  rateLimitHeaders?: Record<string, string>;
};

/** Who is calling (400/401), whether they may call this often (429), and this route (403). */
export const authenticate = (
  route: AnyRoute,
  deps: () => AuthDeps,
): middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext> => ({
  before: async (request) => {
    const { scope } = route;
    if (scope === null) return;
    const { headers } = request.event;
    const resolved = deps();
    const principal = await resolveCredential({ authorization: headers.authorization, apiKey: headers['x-api-key'] }, resolved);

    const decision = await resolved.rateLimiter(principal.credentialId);
    request.context.rateLimitHeaders = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError('rate_limited', `Too many requests. Retry after ${decision.retryAfterSeconds} s.`, undefined, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    if (!principal.scopes.includes(scope)) {
      throw new ApiError(
        'insufficient_scope',
        `This credential lacks the scope ${scope} that this operation requires.`,
        { required_scope: scope },
        // RFC 6750 3.1: the challenge names the scope the operation needs.
        { 'WWW-Authenticate': `Bearer realm="api", error="insufficient_scope", scope="${scope}"` },
      );
    }
    request.context.principal = principal;
  },
});
