import type { CredentialType } from '../../../functions/core/credentials/key-format';
import { createAccount, createCredential, type CreatedCredential } from '../../../functions/core/credentials/manage-credentials';
import { allScopes, type Scope } from '../../../functions/core/credentials/scopes';
import type { RateDecision } from '../../../functions/core/rate-limiter';
import { inMemoryAccountRepository } from './account-repository';
import { controlledClock } from './clock';
import { inMemoryCredentialRepository } from './credential-repository';
import { inMemoryIdempotencyStore } from './idempotency-store';

/**
 * Everything the HTTP pipeline needs, in memory: credentials are minted with the real use case,
 * so they are resolved exactly as in production. The rate limiter allows everything unless a test
 * sets `rateDecision`.
 */
export const inMemoryHttpDeps = () => {
  const accounts = inMemoryAccountRepository();
  const credentials = inMemoryCredentialRepository();
  const idempotency = inMemoryIdempotencyStore();
  const clock = controlledClock();
  const policy = { quota: 100, windowSeconds: 2 };
  const limiter = { decision: { allowed: true, remaining: 99, resetSeconds: 1, policy } as RateDecision, policy };
  const deps = {
    credentials,
    idempotency,
    clock,
    rateLimiter: async (_credentialId: string): Promise<RateDecision> => limiter.decision,
  };

  const newAccount = (email = `owner-${accounts.all().length + 1}@example.test`) =>
    createAccount({ email }, { accounts, credentials, clock });

  const newKey = async (
    accountId: string,
    type: Extract<CredentialType, 'live' | 'test' | 'ro' | 'pat'>,
    scopes: readonly Scope[] = allScopes,
  ): Promise<CreatedCredential> =>
    createCredential({ accountId, type, name: `${type} key`, scopes: [...scopes] }, { accounts, credentials, clock });

  return { deps, accounts, limiter, newAccount, newKey };
};
