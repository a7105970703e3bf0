import { ApiError } from '../../functions/core/errors';
import { checkIdempotencyKey, claimIdempotencyKey, requestFingerprint, type StoredResponse } from '../../functions/core/idempotency';
import type { Tenant } from '../../functions/core/tenancy';
import { startOfTests } from './fakes/clock';
import { inMemoryIdempotencyStore } from './fakes/idempotency-store';
import { apiErrorOf } from './fakes/api-error';
import { statusOf } from '../../functions/http/error-status';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };
const created: StoredResponse = { statusCode: 201, headers: { Location: '/v1/projects/proj_1' }, body: '{"data":{"id":"proj_1"}}' };
const t0 = startOfTests;

describe('claimIdempotencyKey', () => {
  const fingerprint = requestFingerprint('POST', '/v1/projects', { name: 'a' });

  it('lets the first request with a key proceed', async () => {
    await expect(claimIdempotencyKey(inMemoryIdempotencyStore(), tenant, 'k1', fingerprint, t0)).resolves.toBe('proceed');
  });

  it('replays the stored answer to the same request', async () => {
    const store = inMemoryIdempotencyStore();
    await claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0);
    await store.complete(tenant, 'k1', created, t0 + 10);
    await expect(claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0 + 1_000)).resolves.toEqual(created);
  });

  it('refuses the key for a different request with 422 idempotency_key_reused', async () => {
    const store = inMemoryIdempotencyStore();
    await claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0);
    await store.complete(tenant, 'k1', created, t0 + 10);
    const other = requestFingerprint('POST', '/v1/projects', { name: 'b' });
    const error = await apiErrorOf(claimIdempotencyKey(store, tenant, 'k1', other, t0 + 1_000));
    expect(error.code).toBe('idempotency_key_reused');
    expect(statusOf(error)).toBe(422);
  });

  it('refuses the same request while the first is in flight with 409 idempotency_key_in_use', async () => {
    const store = inMemoryIdempotencyStore();
    await claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0);
    const error = await apiErrorOf(claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0 + 100));
    expect(error.code).toBe('idempotency_key_in_use');
    expect(statusOf(error)).toBe(409);
  });

  it('refuses a different request under a key in flight as reused, not in use', async () => {
    const store = inMemoryIdempotencyStore();
    await claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0);
    const other = requestFingerprint('POST', '/v1/projects', { name: 'b' });
    expect((await apiErrorOf(claimIdempotencyKey(store, tenant, 'k1', other, t0 + 100))).code).toBe('idempotency_key_reused');
  });

  it('lets the request proceed again once its claim was released', async () => {
    const store = inMemoryIdempotencyStore();
    await claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0);
    await store.release(tenant, 'k1');
    await expect(claimIdempotencyKey(store, tenant, 'k1', fingerprint, t0 + 100)).resolves.toBe('proceed');
  });
});

describe('requestFingerprint', () => {
  it('ignores the order of keys in the body, at every depth', () => {
    const a = requestFingerprint('POST', '/v1/projects', { name: 'a', repository: 'r', nested: { x: 1, y: [{ p: 1, q: 2 }] } });
    const b = requestFingerprint('POST', '/v1/projects', { nested: { y: [{ q: 2, p: 1 }], x: 1 }, repository: 'r', name: 'a' });
    expect(a).toBe(b);
  });

  it('tells apart different values, array orders, methods and paths', () => {
    const base = requestFingerprint('POST', '/v1/projects', { name: 'a', tags: [1, 2] });
    expect(requestFingerprint('POST', '/v1/projects', { name: 'b', tags: [1, 2] })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/projects', { name: 'a', tags: [2, 1] })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/projects', { name: 'a', tags: [1, 2], extra: null })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/projects', { name: 'a', tags: ['1', 2] })).not.toBe(base);
    expect(requestFingerprint('PATCH', '/v1/projects', { name: 'a', tags: [1, 2] })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/workflows', { name: 'a', tags: [1, 2] })).not.toBe(base);
  });

  it('tells apart query parameters, in any order, and keeps the fingerprint of a request without them', () => {
    const body = { name: 'a' };
    const plain = requestFingerprint('POST', '/v1/projects', body);
    expect(requestFingerprint('POST', '/v1/projects', body, '')).toBe(plain);
    expect(requestFingerprint('POST', '/v1/projects', body, 'x=1')).not.toBe(plain);
    expect(requestFingerprint('POST', '/v1/projects', body, 'x=1&y=2')).toBe(requestFingerprint('POST', '/v1/projects', body, 'y=2&x=1'));
    expect(requestFingerprint('POST', '/v1/projects', body, 'x=1')).not.toBe(requestFingerprint('POST', '/v1/projects', body, 'x=2'));
  });

  it('takes no body, a blank one and an empty object as the same request', () => {
    const none = requestFingerprint('POST', '/v1/workflows/wf_1/cancel', null);
    for (const body of [undefined, '', '  ', '{}', ' { } ', {}])
      expect(requestFingerprint('POST', '/v1/workflows/wf_1/cancel', body)).toBe(none);
    expect(requestFingerprint('POST', '/v1/workflows/wf_1/cancel', { reason: 'x' })).not.toBe(none);
  });
});

describe('checkIdempotencyKey', () => {
  it('accepts 1 to 255 visible ASCII characters', () => {
    expect(checkIdempotencyKey('a')).toBe('a');
    expect(checkIdempotencyKey('3f1c-9a2e_!~')).toBe('3f1c-9a2e_!~');
    expect(checkIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
  });

  it.each(['', 'k'.repeat(256), 'has space', 'tab\there', 'clé', 'line\nbreak', 'first,second', 'first, second'])(
    'refuses %p with validation_error on Idempotency-Key',
    (key) => {
      let error: unknown;
      try {
        checkIdempotencyKey(key);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'validation_error', details: { field: 'Idempotency-Key' } });
      expect(statusOf(error as ApiError)).toBe(422);
    },
  );
});
