import { DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PasswordResetRequest, PasswordResetRequestStore } from '../../core/users/password-reset-requests';
import type { TableRef } from './client';
import { entityTypes, ttlOf } from './keys';
import { linkPut } from './one-time-link-repository';
import * as keys from './table-keys';
import { conditionFailedAt } from './transactions';

/** The stored item of a request: what the stream's function is handed in its new image. */
export const passwordResetRequestItem = (request: PasswordResetRequest) => ({
  ...keys.passwordResetRequest(request.id),
  entity: entityTypes.passwordResetRequest,
  ttl: ttlOf(request.expires_at),
  ...request,
});

/**
 * Requests in the table, one item each (TTL). A claim sets `link_hash` on the item: that update
 * is a MODIFY in the stream, which the function's filter (INSERTs only) never takes.
 */
export const dynamoPasswordResetRequestStore = ({ client, tableName }: TableRef): PasswordResetRequestStore => ({
  async record(request) {
    await client.send(
      new PutCommand({ TableName: tableName, Item: passwordResetRequestItem(request), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  },

  async claim(requestId, link) {
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.passwordResetRequest(requestId),
                UpdateExpression: 'SET link_hash = :hash',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(link_hash)',
                ExpressionAttributeValues: { ':hash': link.hash },
              },
            },
            { Put: linkPut(tableName, link) },
          ],
        }),
      );
      return 'claimed';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'handled';
      throw error;
    }
  },

  async release(requestId, linkHash) {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName, Key: keys.oneTimeLink(linkHash) } },
          {
            Update: {
              TableName: tableName,
              Key: keys.passwordResetRequest(requestId),
              UpdateExpression: 'REMOVE link_hash',
              ConditionExpression: 'link_hash = :hash',
              ExpressionAttributeValues: { ':hash': linkHash },
            },
          },
        ],
      }),
    );
  },

  async discard(requestId) {
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.passwordResetRequest(requestId) }));
  },
});
