import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface TableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export const createDocumentClient = (config: ConstructorParameters<typeof DynamoDBClient>[0] = {}): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });

let defaultTable: TableRef | undefined;

/**
 * The table of this deployment, from `TABLE_NAME`. The endpoint comes from the SDK's own settings
 * (`AWS_ENDPOINT_URL_DYNAMODB` locally), so handlers hold no local-only branch.
 */
export const tableFromEnvironment = (): TableRef => {
  if (!defaultTable) {
    const tableName = process.env.TABLE_NAME;
    if (!tableName) throw new Error('TABLE_NAME is not set');
    defaultTable = { client: createDocumentClient(), tableName };
  }
  return defaultTable;
};
