import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../client';

/** The partition keys of every item the filter takes, across the table's pages (a whole scan: migrations only). */
export const partitionsWhere = async (
  table: TableRef,
  filter: { FilterExpression: string; ExpressionAttributeValues: Record<string, unknown> },
): Promise<Set<string>> => {
  const partitions = new Set<string>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({ TableName: table.tableName, ...filter, ProjectionExpression: 'pk', ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) partitions.add(String(item.pk));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return partitions;
};
