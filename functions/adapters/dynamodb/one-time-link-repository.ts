import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { OneTimeLink, OneTimeLinkRepository } from '../../core/users/one-time-links';
import type { TableRef } from './client';
import { entityTypes, ttlOf, withoutKeys } from './keys';
import * as keys from './table-keys';
import { conditionFailedAt } from './transactions';
import { userRevisionPut } from './user-repository';

/** The write that stores a new link (TTL at its expiry), alone or in a transaction. */
export const linkPut = (tableName: string, link: OneTimeLink) => ({
  TableName: tableName,
  Item: { ...keys.oneTimeLink(link.hash), entity: entityTypes.oneTimeLink, ttl: ttlOf(link.expires_at), ...link },
  ConditionExpression: 'attribute_not_exists(pk)',
});

export const dynamoOneTimeLinkRepository = ({ client, tableName }: TableRef): OneTimeLinkRepository => ({
  async create(link) {
    await client.send(new PutCommand(linkPut(tableName, link)));
  },

  async find(hash) {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.oneTimeLink(hash), ConsistentRead: true }));
    return result.Item ? withoutKeys<OneTimeLink>(result.Item) : undefined;
  },

  async redeem(hash, user, now) {
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              // The link goes in the same write that changes the password: it can never be used twice.
              Delete: {
                TableName: tableName,
                Key: keys.oneTimeLink(hash),
                ConditionExpression: 'attribute_exists(pk) AND user_id = :user AND expires_at > :now',
                ExpressionAttributeValues: { ':user': user.id, ':now': now },
              },
            },
            userRevisionPut(tableName, user),
          ],
        }),
      );
      return 'redeemed';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'used';
      if (conditionFailedAt(error, 1)) return 'changed';
      throw error;
    }
  },
});
