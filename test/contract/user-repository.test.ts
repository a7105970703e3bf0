import { dynamoUserRepository } from '../../functions/adapters/dynamodb/user-repository';
import type { Membership, User, UserRepository } from '../../functions/core/users/user';
import { inMemoryUserRepository } from '../unit/fakes/people';
import { useDynamoDbLocal } from './support/table';
import { userRecord } from './support/records';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<UserRepository>]> = [
  ['the in-memory fake', async () => inMemoryUserRepository()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoUserRepository(await dynamodb.freshTable())],
];

const at = '2026-03-01T10:00:00.000Z';

const user = (id: string): User => userRecord({ id, email: `${id}@example.com` }, at);

const membership = (userId: string, accountId: string, role: Membership['role'] = 'admin'): Membership => ({
  account_id: accountId,
  user_id: userId,
  role,
  created_at: at,
});

describe.each(implementations)('UserRepository: %s', (_name, make) => {
  let users: UserRepository;
  beforeEach(async () => {
    users = await make();
  });

  it('reads a user and their memberships, one account at a time or all of them', async () => {
    await users.create(user('usr_a'), membership('usr_a', 'acct_one'));
    await users.addMembership(membership('usr_a', 'acct_two', 'viewer'));
    expect(await users.get('usr_a')).toEqual(user('usr_a'));
    expect(await users.getMembership('usr_a', 'acct_two')).toEqual(membership('usr_a', 'acct_two', 'viewer'));
    expect(await users.getMembership('usr_a', 'acct_three')).toBeUndefined();
    expect(await users.get('usr_gone')).toBeUndefined();
    expect(await users.removeMembership('usr_a', 'acct_one')).toBe(true);
    expect(await users.removeMembership('usr_a', 'acct_one')).toBe(false);
    expect(await users.membershipsOfUser('usr_a')).toEqual([membership('usr_a', 'acct_two', 'viewer')]);
  });
});
