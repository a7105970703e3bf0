import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { createDocumentClient, type TableRef } from '../../../functions/adapters/dynamodb/client';
import { ensureTable } from '../../../lib/local/create-table';

/** Where the contract tier's global setup started DynamoDB Local. */
export const dynamoDbEndpointVariable = 'CONTRACT_DYNAMODB_ENDPOINT';

/**
 * The contract tier's DynamoDB Local (started once per run by `global-setup.ts`). `freshTable()`
 * makes a new, empty table in it from the stack's own schema, so every test starts from nothing.
 */
export const useDynamoDbLocal = () => {
  let documents: DynamoDBDocumentClient | undefined;
  afterAll(() => {
    documents?.destroy();
  });
  const config = () => {
    const endpoint = process.env[dynamoDbEndpointVariable];
    if (!endpoint) throw new Error(`DynamoDB Local is not running (${dynamoDbEndpointVariable} is unset: run the contract project)`);
    return { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
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
      documents ??= createDocumentClient(config());
      return { client: documents, tableName };
    },
  };
};
