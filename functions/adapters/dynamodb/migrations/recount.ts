import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../../core/tenancy';
import type { TableRef } from '../client';
import { entityTypes } from '../keys';
import { queryAll } from '../query-all';
import type { TransactItem } from '../transactions';
import { tenantOfKey } from '../tenant-of-key';
import { partitionsWhere } from './scan-partitions';

/** A count kept in a counter item: which records, where they live, which of them count and where the count is kept. */
export interface CountedCollection {
  entity: string;
  partition: (tenant: Tenant) => string;
  sortKeyPrefix: string;
  counted: (record: { status: string; severity: string }) => boolean;
  counterKey: (tenant: Tenant) => { pk: string; sk: string };
}

/** A transaction names at most 100 items: the counter and up to 99 records it checks. */
const checkedRecordsAtMost = 99;
const attemptsPerTenant = 5;

const recordsOf = async (table: TableRef, collection: CountedCollection, tenant: Tenant) =>
  (
    await queryAll(table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': collection.partition(tenant), ':prefix': collection.sortKeyPrefix },
      ProjectionExpression: 'sk, #status, severity',
      ExpressionAttributeNames: { '#status': 'status' },
      ConsistentRead: true,
    })
  ).map((item) => ({ sk: String(item.sk), status: String(item.status), severity: String(item.severity) }));

/**
 * Sets one tenant's counter to the number of its records in the counted state, in a transaction
 * that also checks every record still has the status counted: a record moving meanwhile cancels
 * it, and it counts again. Beyond 99 records the count is written unchecked.
 */
const recountTenant = async (table: TableRef, collection: CountedCollection, tenant: Tenant): Promise<number> => {
  for (let attempt = 1; ; attempt += 1) {
    const records = await recordsOf(table, collection, tenant);
    const counted = records.filter(collection.counted).length;
    const checks: TransactItem[] =
      records.length > checkedRecordsAtMost
        ? []
        : records.map(({ sk, status }) => ({
            ConditionCheck: {
              TableName: table.tableName,
              Key: { pk: collection.partition(tenant), sk },
              ConditionExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':status': status },
            },
          }));
    const put: TransactItem = {
      Put: { TableName: table.tableName, Item: { ...collection.counterKey(tenant), entity: entityTypes.counter, count: counted } },
    };
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: [put, ...checks] }));
      return counted;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) || attempt >= attemptsPerTenant) throw error;
    }
  }
};

const tenantsWith = async (table: TableRef, collection: CountedCollection): Promise<Tenant[]> => {
  const partitions = await partitionsWhere(table, {
    FilterExpression: 'entity = :entity',
    ExpressionAttributeValues: { ':entity': collection.entity },
  });
  return [...partitions].flatMap((partition) => {
    const tenant = tenantOfKey(partition);
    return tenant && partition === collection.partition(tenant) ? [tenant] : [];
  });
};

/**
 * Sets every account mode's counter of the collection from its records (for records written before
 * the counter was kept). Idempotent; safe beside the writes (see `recountTenant`).
 */
export const recountCollection = async (table: TableRef, collection: CountedCollection): Promise<{ tenants: number; counted: number }> => {
  const tally = { tenants: 0, counted: 0 };
  for (const tenant of await tenantsWith(table, collection)) {
    tally.tenants += 1;
    tally.counted += await recountTenant(table, collection, tenant);
  }
  return tally;
};
