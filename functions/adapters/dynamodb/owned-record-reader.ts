import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
import { ownedRecord } from './keys';

/**
 * Reads one of a tenant's records by id, strongly consistent (the use cases read, change and save
 * it back), without its keys and owner attributes; undefined when there is none. `keyOf` is the
 * entity's key from table-keys.ts (`keys.review`, `keys.scan`, …).
 */
export const ownedRecordById =
  <T>({ client, tableName }: TableRef, keyOf: (tenant: Tenant, id: string) => Record<string, unknown>) =>
  async (tenant: Tenant, id: string): Promise<T | undefined> => {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keyOf(tenant, id), ConsistentRead: true }));
    return result.Item ? ownedRecord<T>(result.Item) : undefined;
  };
