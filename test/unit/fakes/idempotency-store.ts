import {
  idempotencyLockMs,
  idempotencyWindowMs,
  type IdempotencyRecord,
  type IdempotencyStore,
  type StoredResponse,
} from '../../../functions/core/idempotency';
import type { Tenant } from '../../../functions/core/tenancy';

interface Entry {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
  lockedUntil: number;
  expiresAt: number;
}

/**
 * In-memory IdempotencyStore with the DynamoDB store's rules: a key is scoped to account and mode;
 * it can be claimed when free, expired, or abandoned (lock passed) by the same request.
 */
export const inMemoryIdempotencyStore = (): IdempotencyStore & { entries: Map<string, Entry> } => {
  const entries = new Map<string, Entry>();
  const id = (tenant: Tenant, key: string) => `${tenant.accountId}|${tenant.mode}|${key}`;
  return {
    entries,
    async claim(tenant, key, fingerprint, nowMs): Promise<IdempotencyRecord | 'claimed'> {
      const old = entries.get(id(tenant, key));
      const free =
        !old || old.expiresAt < nowMs || (old.state === 'in_progress' && old.lockedUntil < nowMs && old.fingerprint === fingerprint);
      if (!free) return { fingerprint: old.fingerprint, state: old.state, response: old.response };
      entries.set(id(tenant, key), {
        fingerprint,
        state: 'in_progress',
        lockedUntil: nowMs + idempotencyLockMs,
        expiresAt: nowMs + idempotencyWindowMs,
      });
      return 'claimed';
    },
    async complete(tenant, key, response, nowMs) {
      const entry = entries.get(id(tenant, key));
      if (!entry) return;
      Object.assign(entry, { state: 'completed', response: structuredClone(response), expiresAt: nowMs + idempotencyWindowMs });
    },
    async release(tenant, key) {
      entries.delete(id(tenant, key));
    },
  };
};
