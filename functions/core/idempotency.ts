import { createHash } from 'node:crypto';
import { ApiError, validationError } from './errors';
import type { Tenant } from './tenancy';

/** Keys are kept this long; a repeat within it replays the first answer. */
export const idempotencyWindowMs = 24 * 3_600_000;
/** A claim older than this is taken to be a crashed request, and the same request may retry. */
export const idempotencyLockMs = 60_000;

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
}

export interface IdempotencyStore {
  /** Claims the key, or returns what is stored under it when it is live. */
  claim(tenant: Tenant, key: string, fingerprint: string, nowMs: number): Promise<IdempotencyRecord | 'claimed'>;
  complete(tenant: Tenant, key: string, response: StoredResponse, nowMs: number): Promise<void>;
  /** Forgets a claim whose request failed on our side, so the caller may retry. */
  release(tenant: Tenant, key: string): Promise<void>;
}

export const checkIdempotencyKey = (key: string): string => {
  // A header given twice reaches the function as one value joined by commas (API Gateway, node's
  // HTTP server): refused as such, never taken as a third key neither of the two named.
  if (key.includes(',')) {
    throw validationError([{ field: 'Idempotency-Key', issue: 'is given more than once, or holds a comma; give one key, once' }]);
  }
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw validationError([{ field: 'Idempotency-Key', issue: 'must be 1 to 255 visible ASCII characters' }]);
  }
  return key;
};

/**
 * What makes two requests "the same request" for one key: method, path, query parameters (in any
 * order) and body (keys in any order; no body, a blank one and `{}` alike, as an operation that takes
 * no body treats them).
 */
export const requestFingerprint = (method: string, path: string, body: unknown, query = ''): string => {
  const parameters = [...new URLSearchParams(query)].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  // A request without parameters is fingerprinted as it always was.
  const target =
    parameters.length > 0 ? [method, path, canonicalJson(emptied(body)), parameters] : [method, path, canonicalJson(emptied(body))];
  return createHash('sha256').update(JSON.stringify(target)).digest('hex');
};

/** No body for a blank one or an empty object, as raw text or parsed. */
const emptied = (body: unknown): unknown => {
  if (typeof body === 'string' && /^\s*(\{\s*\})?\s*$/.test(body)) return null;
  if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return null;
  return body ?? null;
};

const canonicalJson = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonicalJson((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
};

/**
 * The decision for a request carrying an Idempotency-Key: go ahead (the key is ours now), or
 * replay the stored answer, or refuse.
 */
export const claimIdempotencyKey = async (
  store: IdempotencyStore,
  tenant: Tenant,
  key: string,
  fingerprint: string,
  nowMs: number,
): Promise<'proceed' | StoredResponse> => {
  const claim = await store.claim(tenant, key, fingerprint, nowMs);
  if (claim === 'claimed') return 'proceed';
  if (claim.fingerprint !== fingerprint) {
    throw new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  }
  if (claim.state === 'in_progress' || !claim.response) {
    throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry after it completes.');
  }
  return claim.response;
};
