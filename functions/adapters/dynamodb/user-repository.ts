import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { conflict } from '../../core/errors';
import type { Membership, User, UserRepository } from '../../core/users/user';
import type { TableRef } from './client';
import { entityTypes, withoutKeys } from './keys';
import { allInIndexPartition, queryAll } from './query-all';
import * as keys from './table-keys';
import { conditionFailedAt, isConditionFailure, type TransactItem } from './transactions';

export const userItem = (user: User): Record<string, unknown> => ({ ...keys.user(user.id), entity: entityTypes.user, ...user });

/** Puts `user` if the stored one is still at the revision before it (a transaction item). */
export const userRevisionPut = (tableName: string, user: User): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: userItem(user),
    ConditionExpression: '#revision = :previous',
    ExpressionAttributeNames: { '#revision': 'revision' },
    ExpressionAttributeValues: { ':previous': user.revision - 1 },
  },
});

export const membershipItem = (membership: Membership): Record<string, unknown> => ({
  ...keys.membership(membership.user_id, membership.account_id),
  ...keys.membershipIndexes(membership.account_id, membership.user_id),
  entity: entityTypes.membership,
  ...membership,
});

export const dynamoUserRepository = ({ client, tableName }: TableRef): UserRepository => {
  const get = async (id: string): Promise<User | undefined> => {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }));
    return result.Item ? withoutKeys<User>(result.Item) : undefined;
  };

  return {
    async create(user, membership) {
      const items: TransactItem[] = [
        { Put: { TableName: tableName, Item: userItem(user), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          // One user per e-mail address, across every account.
          Put: {
            TableName: tableName,
            Item: { ...keys.userEmail(user.email), entity: entityTypes.userEmail, user_id: user.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      if (membership)
        items.push({ Put: { TableName: tableName, Item: membershipItem(membership), ConditionExpression: 'attribute_not_exists(pk)' } });
      try {
        await client.send(new TransactWriteCommand({ TransactItems: items }));
      } catch (error) {
        if (conditionFailedAt(error, 1)) throw conflict(`A user with the e-mail ${user.email} exists already.`);
        throw error;
      }
    },

    get,

    async findByEmail(email) {
      const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.userEmail(email), ConsistentRead: true }));
      const userId = result.Item?.user_id as string | undefined;
      return userId ? get(userId) : undefined;
    },

    async update(user) {
      try {
        await client.send(new TransactWriteCommand({ TransactItems: [userRevisionPut(tableName, user)] }));
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0)) return false;
        throw error;
      }
    },

    async addMembership(membership) {
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              { ConditionCheck: { TableName: tableName, Key: keys.user(membership.user_id), ConditionExpression: 'attribute_exists(pk)' } },
              { Put: { TableName: tableName, Item: membershipItem(membership), ConditionExpression: 'attribute_not_exists(pk)' } },
            ],
          }),
        );
      } catch (error) {
        if (conditionFailedAt(error, 1)) throw conflict('This user is a member of the account already.');
        throw error;
      }
    },

    async getMembership(userId, accountId) {
      const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.membership(userId, accountId) }));
      return result.Item ? withoutKeys<Membership>(result.Item) : undefined;
    },

    async membershipsOfUser(userId) {
      const items = await queryAll(
        { client, tableName },
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.membershipSortKeyPrefix },
          ConsistentRead: true,
        },
      );
      return items.map((item) => withoutKeys<Membership>(item));
    },

    async membersOfAccount(accountId) {
      const items = await allInIndexPartition({ client, tableName }, 'gsi1', keys.membersOfAccount(accountId));
      return items.map((item) => withoutKeys<Membership>(item));
    },

    async removeMembership(userId, accountId) {
      try {
        await client.send(
          new DeleteCommand({ TableName: tableName, Key: keys.membership(userId, accountId), ConditionExpression: 'attribute_exists(pk)' }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
};
