import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Credential, CredentialRepository } from '../../core/credentials/credential';
import type { TableRef } from './client';
import { credentialOf, dynamoCredentialLookup } from './credential-lookup';
import { entityTypes } from './keys';
import { allInIndexPartition } from './query-all';
import * as keys from './table-keys';
import { conditionFailedAt, isConditionFailure } from './transactions';

export const dynamoCredentialRepository = (table: TableRef): CredentialRepository => {
  const { client, tableName } = table;
  const lookup = dynamoCredentialLookup(table);
  const findById = async (id: string): Promise<Credential | undefined> => {
    const result = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.credentialById(id) },
        Limit: 1,
      }),
    );
    const item = result.Items?.[0];
    return item ? credentialOf(item) : undefined;
  };

  return {
    ...lookup,

    findById,

    async create(credential) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.credential(credential.hash),
            ...keys.credentialIndexes(credential.account_id, credential.id),
            entity: entityTypes.credential,
            ...credential,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async listByAccount(accountId) {
      const items = await allInIndexPartition(table, 'gsi1', keys.credentialsOfAccount(accountId));
      return items.map(credentialOf);
    },

    async revoke(id, at) {
      const found = await findById(id);
      if (!found) return undefined;
      try {
        const result = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.credential(found.hash),
            UpdateExpression: 'SET revoked_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
            ExpressionAttributeValues: { ':at': at, ':null': null },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return credentialOf(result.Attributes ?? {});
      } catch (error) {
        // Already revoked: revoking again is harmless and keeps the first time.
        if (isConditionFailure(error)) return findById(id);
        throw error;
      }
    },

    async roll(replacement, oldId, oldExpiresAt) {
      const old = await findById(oldId);
      if (!old) return undefined;
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.credential(old.hash),
                  UpdateExpression: 'SET expires_at = :at',
                  ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
                  ExpressionAttributeValues: { ':at': oldExpiresAt, ':null': null },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...keys.credential(replacement.hash),
                    ...keys.credentialIndexes(replacement.account_id, replacement.id),
                    entity: entityTypes.credential,
                    ...replacement,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
      } catch (error) {
        // Revoked meanwhile: nothing was stored.
        if (conditionFailedAt(error, 0)) return undefined;
        throw error;
      }
      return { ...old, expires_at: oldExpiresAt };
    },
  };
};
