import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';

/** Every item a query matches (the first `atMost`, when given), across DynamoDB's 1 MB pages, in the query's order. */
export const queryAll = async (
  { client, tableName }: TableRef,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  atMost = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await client.send(new QueryCommand({ TableName: tableName, ...input, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < atMost);
  return items.slice(0, atMost);
};

/** Every item of one partition of a global index (its `<index>pk`), in sort-key order, or newest first. */
export const allInIndexPartition = (
  table: TableRef,
  index: 'gsi1' | 'gsi2',
  partition: string,
  order: 'ascending' | 'newestFirst' = 'ascending',
): Promise<Record<string, unknown>[]> =>
  queryAll(table, {
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ExpressionAttributeValues: { ':pk': partition },
    ...(order === 'newestFirst' ? { ScanIndexForward: false } : {}),
  });
