import { dynamoIdempotencyStore } from '../../functions/adapters/dynamodb/idempotency-store';
import { idempotencyLockMs, idempotencyWindowMs, type IdempotencyStore, type StoredResponse } from '../../functions/core/idempotency';
import type { Tenant } from '../../functions/core/tenancy';
import { inMemoryIdempotencyStore } from '../unit/fakes/idempotency-store';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<IdempotencyStore>]> = [
  ['the in-memory fake', async () => inMemoryIdempotencyStore()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoIdempotencyStore(await dynamodb.freshTable())],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const now = Date.parse('2026-03-01T10:00:00.000Z');
const key = 'order-7d1f';

const response: StoredResponse = {
  statusCode: 201,
  headers: { 'content-type': 'application/json', location: '/v1/projects/proj_1' },
  body: JSON.stringify({ data: { id: 'proj_1', name: 'Checkout', tags: [], nested: { empty: '' } } }),
};

describe.each(implementations)('IdempotencyStore: %s', (_name, make) => {
  let store: IdempotencyStore;
  beforeEach(async () => {
    store = await make();
  });

  it('claims a free key once; while the claim runs, another request sees it in progress', async () => {
    expect(await store.claim(tenant, key, 'fp-a', now)).toBe('claimed');
    expect(await store.claim(tenant, key, 'fp-a', now + 1_000)).toEqual({ fingerprint: 'fp-a', state: 'in_progress' });
    expect(await store.claim(tenant, key, 'fp-b', now + 1_000)).toEqual({ fingerprint: 'fp-a', state: 'in_progress' });
  });

  it('gives back the completed answer, exactly as stored, to every later claim within the window', async () => {
    await store.claim(tenant, key, 'fp-a', now);
    await store.complete(tenant, key, response, now + 2_000);
    const completed = { fingerprint: 'fp-a', state: 'completed', response };
    expect(await store.claim(tenant, key, 'fp-a', now + 3_000)).toEqual(completed);
    expect(await store.claim(tenant, key, 'fp-b', now + 3_000)).toEqual(completed);
    // The window counts from completion, and a completed answer is never taken over.
    expect(await store.claim(tenant, key, 'fp-a', now + 2_000 + idempotencyWindowMs)).toEqual(completed);
    expect(await store.claim(tenant, key, 'fp-a', now + 2_001 + idempotencyWindowMs)).toBe('claimed');
  });

  it('lets the same request take over a claim whose lock has passed, but not another request', async () => {
    await store.claim(tenant, key, 'fp-a', now);
    expect(await store.claim(tenant, key, 'fp-a', now + idempotencyLockMs)).toEqual({ fingerprint: 'fp-a', state: 'in_progress' });
    expect(await store.claim(tenant, key, 'fp-b', now + idempotencyLockMs + 1)).toEqual({ fingerprint: 'fp-a', state: 'in_progress' });
    expect(await store.claim(tenant, key, 'fp-a', now + idempotencyLockMs + 1)).toBe('claimed');
    // The new claim has a lock of its own.
    expect(await store.claim(tenant, key, 'fp-a', now + idempotencyLockMs + 2)).toEqual({ fingerprint: 'fp-a', state: 'in_progress' });
  });

  it('frees an expired key for any request', async () => {
    await store.claim(tenant, key, 'fp-a', now);
    expect(await store.claim(tenant, key, 'fp-b', now + idempotencyWindowMs + 1)).toBe('claimed');
    expect(await store.claim(tenant, key, 'fp-a', now + idempotencyWindowMs + 2)).toEqual({ fingerprint: 'fp-b', state: 'in_progress' });
  });

  it('forgets a released claim, so the request may be retried', async () => {
    await store.claim(tenant, key, 'fp-a', now);
    await store.release(tenant, key);
    expect(await store.claim(tenant, key, 'fp-b', now + 1)).toBe('claimed');
    await store.release(tenant, 'never-claimed');
  });

  it('scopes keys to the account and the mode', async () => {
    expect(await store.claim(tenant, key, 'fp-a', now)).toBe('claimed');
    expect(await store.claim({ ...tenant, mode: 'test' }, key, 'fp-a', now)).toBe('claimed');
    expect(await store.claim({ ...tenant, accountId: 'acct_other' }, key, 'fp-a', now)).toBe('claimed');
  });
});
