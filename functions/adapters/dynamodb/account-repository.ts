import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Account, AccountRepository } from '../../core/credentials/credential';
import { conflict } from '../../core/errors';
import type { TableRef } from './client';
import { entityTypes, withoutKeys } from './keys';
import * as keys from './table-keys';
import { conditionFailedAt } from './transactions';

export const dynamoAccountRepository = ({ client, tableName }: TableRef): AccountRepository => ({
  async create(account) {
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: { ...keys.account(account.id), ...keys.accountIndex(account.id), entity: entityTypes.account, ...account },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              // One account per e-mail address.
              Put: {
                TableName: tableName,
                Item: { ...keys.accountEmail(account.email), entity: entityTypes.accountEmail, account_id: account.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (conditionFailedAt(error, 1)) throw conflict(`An account with the e-mail ${account.email} already exists.`);
      throw error;
    }
  },

  async get(id) {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.account(id) }));
    return result.Item ? withoutKeys<Account>(result.Item) : undefined;
  },

  async list(limit) {
    const result = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.accountsCollection },
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => withoutKeys<Account>(item));
  },
});
