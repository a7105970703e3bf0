import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { createDocumentClient, type TableRef } from '../../../functions/adapters/dynamodb/client';
import { ensureTable } from '../../../lib/local/create-table';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../lib/local/dynamodb-local';

/**
 * DynamoDB Local (in memory, on a free port of 127.0.0.1) for one contract suite, started before
 * its tests and stopped after them. `freshTable()` makes a new, empty table in it from the stack's
 * own schema, so every test starts from nothing.
 */
export const useDynamoDbLocal = () => {
  let dynamodb: DynamoDbLocal | undefined;
  beforeAll(async () => {
    dynamodb = await startDynamoDbLocal({ inMemory: true });
  });
  afterAll(async () => {
    await dynamodb?.stop();
  });
  const config = () => {
    if (!dynamodb) throw new Error('DynamoDB Local is not running');
    return { endpoint: dynamodb.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  };
  return {
    async freshTable(): Promise<TableRef> {
      const tableName = `contract-${randomUUID()}`;
      const client = new DynamoDBClient(config());
      try {
        await ensureTable(client, tableName);
      } finally {
        client.destroy();
      }
      return { client: createDocumentClient(config()), tableName };
    },
  };
};
