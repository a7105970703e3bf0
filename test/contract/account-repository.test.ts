import { dynamoAccountRepository } from '../../functions/adapters/dynamodb/account-repository';
import type { Account, AccountRepository } from '../../functions/core/credentials/credential';
import { ApiError } from '../../functions/core/errors';
import { newId } from '../../functions/core/ids';
import { inMemoryAccountRepository } from '../unit/fakes/account-repository';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<AccountRepository>]> = [
  ['the in-memory fake', async () => inMemoryAccountRepository()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoAccountRepository(await dynamodb.freshTable())],
];

const start = Date.parse('2026-03-01T10:00:00.000Z');

const account = (minute: number, email = `owner${minute}@example.com`): Account => ({
  id: newId('account', start + minute * 60_000),
  email,
  created_at: new Date(start + minute * 60_000).toISOString(),
});

describe.each(implementations)('AccountRepository: %s', (_name, make) => {
  let accounts: AccountRepository;
  beforeEach(async () => {
    accounts = await make();
  });

  it('gives back what it stored; undefined for an unknown id', async () => {
    const created = account(0);
    await accounts.create(created);
    expect(await accounts.get(created.id)).toEqual(created);
    expect(await accounts.get(account(1).id)).toBeUndefined();
  });

  it('keeps one account per e-mail: a second one is a conflict and stores nothing', async () => {
    await accounts.create(account(0, 'owner@example.com'));
    const second = account(1, 'owner@example.com');
    const refused = await accounts.create(second).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'conflict', message: 'An account with the e-mail owner@example.com already exists.' });
    expect(await accounts.get(second.id)).toBeUndefined();
    expect(await accounts.list(10)).toHaveLength(1);
  });

  it('refuses a second create of the same id and keeps the first', async () => {
    const first = account(0);
    await accounts.create(first);
    await expect(accounts.create({ ...first, email: 'other@example.com' })).rejects.toThrow();
    expect(await accounts.get(first.id)).toEqual(first);
  });

  it('lists accounts in id (creation) order, whatever order they were created in, up to the limit', async () => {
    const [a, b, c] = [account(0), account(1), account(2)];
    for (const created of [c!, a!, b!]) await accounts.create(created);
    expect(await accounts.list(10)).toEqual([a, b, c]);
    expect(await accounts.list(2)).toEqual([a, b]);
  });
});
