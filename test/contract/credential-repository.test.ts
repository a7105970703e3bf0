import { createHash } from 'node:crypto';
import { dynamoCredentialRepository } from '../../functions/adapters/dynamodb/credential-repository';
import type { Credential, CredentialRepository } from '../../functions/core/credentials/credential';
import { newId } from '../../functions/core/ids';
import { inMemoryCredentialRepository } from '../unit/fakes/credential-repository';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<CredentialRepository>]> = [
  ['the in-memory fake', async () => inMemoryCredentialRepository()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoCredentialRepository(await dynamodb.freshTable())],
];

const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minute: number): string => new Date(start + minute * 60_000).toISOString();
const accountId = newId('account', start - 86_400_000);
const otherAccountId = newId('account', start - 86_400_000 + 1);

const credential = (minute: number, owner = accountId): Credential => ({
  id: newId('credential', start + minute * 60_000),
  account_id: owner,
  type: 'test',
  name: `Key ${minute}`,
  scopes: ['read:projects', 'write:projects'],
  hash: createHash('sha256').update(`svc_test_value_${minute}`).digest('hex'),
  hint: `svc_test_…${String(minute).padStart(4, '0')}`,
  created_at: at(minute),
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  created_by_user_id: null,
});

describe.each(implementations)('CredentialRepository: %s', (_name, make) => {
  let credentials: CredentialRepository;
  beforeEach(async () => {
    credentials = await make();
  });

  it('finds a credential by the hash of its value and by its id; undefined for unknown ones', async () => {
    const created = credential(0);
    await credentials.create(created);
    expect(await credentials.findByHash(created.hash)).toEqual(created);
    expect(await credentials.findById(created.id)).toEqual(created);
    expect(await credentials.findByHash(credential(1).hash)).toBeUndefined();
    expect(await credentials.findById(credential(1).id)).toBeUndefined();
  });

  it('refuses a second credential with the same hash and keeps the first', async () => {
    const first = credential(0);
    await credentials.create(first);
    await expect(credentials.create({ ...credential(1), hash: first.hash })).rejects.toThrow();
    expect(await credentials.findByHash(first.hash)).toEqual(first);
  });

  it("lists an account's credentials in id (creation) order, and no other account's", async () => {
    const [a, b, c] = [credential(0), credential(1), credential(2)];
    for (const created of [c!, a!, credential(3, otherAccountId), b!]) await credentials.create(created);
    expect(await credentials.listByAccount(accountId)).toEqual([a, b, c]);
    expect(await credentials.listByAccount(newId('account', start))).toEqual([]);
  });

  it('revokes once: a second revocation keeps the first time; undefined for an unknown id', async () => {
    const created = credential(0);
    await credentials.create(created);
    expect(await credentials.revoke(created.id, at(10))).toEqual({ ...created, revoked_at: at(10) });
    expect(await credentials.revoke(created.id, at(20))).toEqual({ ...created, revoked_at: at(10) });
    expect(await credentials.findByHash(created.hash)).toEqual({ ...created, revoked_at: at(10) });
    expect(await credentials.revoke(credential(1).id, at(10))).toBeUndefined();
  });

  it('keeps the person who made a credential through a revocation, a roll and a use', async () => {
    const made = { ...credential(0), type: 'pat' as const, created_by_user_id: 'usr_0000000000000000000001' };
    await credentials.create(made);
    expect(await credentials.findByHash(made.hash)).toEqual(made);
    expect(await credentials.findById(made.id)).toEqual(made);
    expect(await credentials.listByAccount(accountId)).toEqual([made]);
    await credentials.touchLastUsed(made.hash, at(1), at(0));
    const replacement = { ...credential(2), type: 'pat' as const, created_by_user_id: made.created_by_user_id };
    expect(await credentials.roll(replacement, made.id, at(3))).toEqual({ ...made, last_used_at: at(1), expires_at: at(3) });
    expect(await credentials.findById(replacement.id)).toEqual(replacement);
    expect((await credentials.revoke(made.id, at(4)))?.created_by_user_id).toBe(made.created_by_user_id);
  });

  it('reads a credential stored before creators were recorded (no such attribute) as made by nobody (null)', async () => {
    const { created_by_user_id: _none, ...legacy } = { ...credential(0), type: 'pat' as const };
    await credentials.create(legacy as Credential);
    const asRead = { ...legacy, created_by_user_id: null };
    expect(await credentials.findByHash(legacy.hash)).toEqual(asRead);
    expect(await credentials.findById(legacy.id)).toEqual(asRead);
    expect(await credentials.listByAccount(accountId)).toEqual([asRead]);
    expect(await credentials.revoke(legacy.id, at(1))).toEqual({ ...asRead, revoked_at: at(1) });
  });

  it('records a use unless one at or after the given time is recorded already', async () => {
    const created = credential(0);
    await credentials.create(created);
    const lastUsed = async () => (await credentials.findByHash(created.hash))?.last_used_at;
    await credentials.touchLastUsed(created.hash, at(5), at(4));
    expect(await lastUsed()).toBe(at(5));
    // Recorded at 5, which is not before 5: nothing changes.
    await credentials.touchLastUsed(created.hash, at(6), at(5));
    expect(await lastUsed()).toBe(at(5));
    await credentials.touchLastUsed(created.hash, at(7), at(6));
    expect(await lastUsed()).toBe(at(7));
    // An unknown hash is no error, and creates nothing.
    await credentials.touchLastUsed(credential(1).hash, at(7), at(6));
    expect(await credentials.findByHash(credential(1).hash)).toBeUndefined();
  });
});
