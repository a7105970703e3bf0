import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthClient, OAuthClientRepository } from '../../core/oauth/client';
import type { TableRef } from './client';
import { entityTypes, withoutKeys } from './keys';
import { allInIndexPartition } from './query-all';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

export const dynamoOAuthClientRepository = ({ client, tableName }: TableRef): OAuthClientRepository => {
  const get: OAuthClientRepository['get'] = async (id, options) => {
    const result = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.oauthClient(id), ...(options?.consistent ? { ConsistentRead: true } : {}) }),
    );
    return result.Item ? withoutKeys<OAuthClient>(result.Item) : undefined;
  };
  return {
    async create(oauthClient) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.oauthClient(oauthClient.id),
            ...keys.oauthClientIndexes(oauthClient.account_id, oauthClient.id),
            entity: entityTypes.oauthClient,
            ...oauthClient,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    get,

    async ofAccount(accountId) {
      const items = await allInIndexPartition({ client, tableName }, 'gsi1', keys.oauthClientsOfAccount(accountId));
      return items.map((item) => withoutKeys<OAuthClient>(item));
    },

    async update(accountId, id, changes) {
      try {
        const result = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.oauthClient(id),
            UpdateExpression: 'SET #name = :name, redirect_uris = :uris, updated_at = :at',
            // The item exists and belongs to the account; no version check: the last edit wins.
            ConditionExpression: 'attribute_exists(pk) AND account_id = :account',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: {
              ':name': changes.name,
              ':uris': changes.redirect_uris,
              ':at': changes.updated_at,
              ':account': accountId,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return withoutKeys<OAuthClient>(result.Attributes ?? {});
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },

    async replaceSecret(id, fromHash, secret) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.oauthClient(id),
            UpdateExpression: 'SET secret_hash = :hash, secret_hint = :hint, secret_created_at = :at, updated_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND secret_hash = :from',
            ExpressionAttributeValues: { ':hash': secret.hash, ':hint': secret.hint, ':at': secret.created_at, ':from': fromHash },
          }),
        );
        return 'replaced';
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return (await get(id, { consistent: true })) ? 'changed' : 'not_found';
      }
    },

    async delete(accountId, id) {
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.oauthClient(id),
            ConditionExpression: 'account_id = :account',
            ExpressionAttributeValues: { ':account': accountId },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
};
