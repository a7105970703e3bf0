import { dynamoGrantStandingReader } from '../../functions/adapters/dynamodb/oauth-grant-standing';
import { dynamoUserRepository } from '../../functions/adapters/dynamodb/user-repository';
import type { GrantStandingReader } from '../../functions/core/oauth/grant-standing';
import type { Membership, UserRepository } from '../../functions/core/users/user';
import { inMemoryCredentialRepository } from '../unit/fakes/credential-repository';
import { inMemoryAuditLog, inMemoryClientRepository, inMemoryGrantStore, inMemoryUserRepository } from '../unit/fakes/people';
import { useDynamoDbLocal } from './support/table';
import { userRecord } from './support/records';

const dynamodb = useDynamoDbLocal();

/** The reader every API function judges a personal access token's owner with, and the user store that changes memberships. */
const implementations: Array<[string, () => Promise<{ reader: GrantStandingReader; users: UserRepository }>]> = [
  [
    'the in-memory fake',
    async () => {
      const users = inMemoryUserRepository();
      const reader = inMemoryGrantStore(inMemoryCredentialRepository(), users, inMemoryClientRepository(), inMemoryAuditLog());
      return { reader, users };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return { reader: dynamoGrantStandingReader(table), users: dynamoUserRepository(table) };
    },
  ],
];

const at = '2026-03-01T10:00:00.000Z';
const user = userRecord({ id: 'usr_owner', email: 'owner@example.com' }, at);
const membership: Membership = { account_id: 'acct_a', user_id: user.id, role: 'viewer', created_at: at };

describe.each(implementations)("GrantStandingReader.membership (a personal access token's owner): %s", (_name, make) => {
  it('reads the membership while it exists, and nothing once it is removed or for another account', async () => {
    const { reader, users } = await make();
    await users.create(user, membership);
    expect(await reader.membership({ accountId: 'acct_a', userId: user.id })).toEqual(membership);
    expect(await reader.membership({ accountId: 'acct_b', userId: user.id })).toBeUndefined();
    expect(await reader.membership({ accountId: 'acct_a', userId: 'usr_nobody' })).toBeUndefined();

    expect(await users.removeMembership(user.id, 'acct_a')).toBe(true);
    // The reader is eventually consistent (as for an OAuth token's granting person); DynamoDB Local answers at once.
    expect(await reader.membership({ accountId: 'acct_a', userId: user.id })).toBeUndefined();
  });
});
