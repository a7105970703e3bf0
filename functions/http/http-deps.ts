import { systemClock, type Clock } from '../core/clock';
import type { CredentialRepository } from '../core/credentials/credential';
import type { IdempotencyStore } from '../core/idempotency';
import { createRateLimiter, type RateLimiter, rateLimitSettingsFromEnvironment } from '../core/rate-limiter';
import { tableFromEnvironment } from '../adapters/dynamodb/client';
import { dynamoCredentialRepository } from '../adapters/dynamodb/credential-repository';
import { dynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store';
import { dynamoOAuthGrantStore } from '../adapters/dynamodb/oauth-grant-store';
import type { GrantStandingReader } from '../core/oauth/grant-standing';

/** What the shared HTTP steps need: credentials (and OAuth grants), idempotency records, a clock and the rate limiter. */
export interface HttpDeps {
  credentials: CredentialRepository;
  oauthGrants: GrantStandingReader;
  idempotency: IdempotencyStore;
  clock: Clock;
  rateLimiter: RateLimiter;
}

let deps: HttpDeps | undefined;

export const httpDepsFromEnvironment = (): HttpDeps => {
  if (!deps) {
    const table = tableFromEnvironment();
    deps = {
      credentials: dynamoCredentialRepository(table),
      oauthGrants: dynamoOAuthGrantStore(table),
      idempotency: dynamoIdempotencyStore(table),
      clock: systemClock,
      rateLimiter: createRateLimiter(rateLimitSettingsFromEnvironment(), systemClock),
    };
  }
  return deps;
};
