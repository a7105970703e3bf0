import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface TableRef {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** Anything with the SDK's middleware stack: every AWS SDK v3 client. */
interface SdkClient {
  middlewareStack: { remove(toRemove: string): boolean };
}

/**
 * The client without the SDK's logger middleware. Given no logger (none of ours is), the SDK logs
 * to a no-op logger, yet the middleware still builds a redacted copy of every call's input and
 * output for it, walking each value against the operation's schema: about 2.5 % of the local
 * runtime's CPU during webhook deliveries (docs/performance.md), and the same share of every
 * worker's billed time in AWS, for nothing written anywhere.
 */
export const withoutSdkLogging = <T extends SdkClient>(client: T): T => {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
};

export const createDocumentClient = (config: ConstructorParameters<typeof DynamoDBClient>[0] = {}): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(withoutSdkLogging(new DynamoDBClient(config)), {
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
