import { systemClock, type Clock } from '../core/clock';
import type { CredentialLookup } from '../core/credentials/credential';
import type { IdempotencyStore } from '../core/idempotency';
import { createRateLimiter, type RateLimiter, rateLimitSettingsFromEnvironment } from '../core/rate-limiter';
import { dynamoTokenBucketStore } from '../adapters/dynamodb/rate-limit-store';
import { logger } from '../observability/logger';
import { recordRateLimitFailedOpen } from '../observability/metrics';
import { tableFromEnvironment } from '../adapters/dynamodb/client';
import { dynamoCredentialLookup } from '../adapters/dynamodb/credential-lookup';
import { dynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store';
import { dynamoGrantStandingReader } from '../adapters/dynamodb/oauth-grant-standing';
import type { GrantStandingReader } from '../core/oauth/grant-standing';

/** What authentication needs: credentials (and OAuth grants), a clock and the rate limiter. */
export interface AuthenticationDeps {
  credentials: CredentialLookup;
  oauthGrants: GrantStandingReader;
  clock: Clock;
  rateLimiter: RateLimiter;
}

/** What the shared HTTP steps of a write need: authentication's, and idempotency records. */
export interface HttpDeps extends AuthenticationDeps {
  idempotency: IdempotencyStore;
}

let authDeps: AuthenticationDeps | undefined;
let deps: HttpDeps | undefined;

const throttlingErrors = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/**
 * The per-credential limit kept in the table, shared by every instance. When the table cannot
 * answer (throttled, or failing), the request is let through and a metric says so: the limit is
 * a guard against abuse, not a reason to refuse every caller while the table recovers.
 */
const sharedRateLimiter = (table: ReturnType<typeof tableFromEnvironment>): RateLimiter => {
  const settings = rateLimitSettingsFromEnvironment();
  return createRateLimiter(settings, systemClock, dynamoTokenBucketStore(table, settings), {
    onFailOpen: (error) => {
      const name = (error as { name?: unknown }).name;
      const reason = typeof name === 'string' && throttlingErrors.has(name) ? 'throttled' : 'error';
      recordRateLimitFailedOpen(reason);
      logger.warn('rate limit failed open', { reason, error_name: typeof name === 'string' ? name : 'unknown' });
    },
  });
};

export const authDepsFromEnvironment = (): AuthenticationDeps => {
  if (!authDeps) {
    const table = tableFromEnvironment();
    authDeps = {
      credentials: dynamoCredentialLookup(table),
      oauthGrants: dynamoGrantStandingReader(table),
      clock: systemClock,
      rateLimiter: sharedRateLimiter(table),
    };
  }
  return authDeps;
};

export const httpDepsFromEnvironment = (): HttpDeps => {
  deps ??= { ...authDepsFromEnvironment(), idempotency: dynamoIdempotencyStore(tableFromEnvironment()) };
  return deps;
};
