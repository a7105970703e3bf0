import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';

export interface ItemKey {
  pk: string;
  sk: string;
}

/**
 * Reads a few items in one round trip (eventually consistent unless `consistent`); the answer is in
 * the order of `wanted`, `undefined` where no item exists. Keys a batch leaves unprocessed under
 * load are read one by one.
 */
export const getItems = async (
  { client, tableName }: TableRef,
  wanted: readonly ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<(Record<string, unknown> | undefined)[]> => {
  const consistent = options.consistent === true;
  const result = await client.send(
    new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [...wanted], ...(consistent ? { ConsistentRead: true } : {}) } } }),
  );
  let items = result.Responses?.[tableName] ?? [];
  for (const key of (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, string>[]) {
    const one = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: consistent }));
    if (one.Item) items = [...items, one.Item];
  }
  return wanted.map((key) => items.find((item) => item.pk === key.pk && item.sk === key.sk));
};
