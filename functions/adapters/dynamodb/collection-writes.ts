import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';
import { counterUpdate } from './list-page';
import { conditionFailedAt, withConflictRetry } from './transactions';

/**
 * Adds a new item to a collection and counts it, in one transaction. False when an item with
 * this key exists already (nothing is written then).
 */
export const putInCollection = async (
  table: TableRef,
  item: Record<string, unknown> & { pk: string; sk: string },
  collection: string,
): Promise<boolean> => {
  try {
    await withConflictRetry(() =>
      table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: table.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
            counterUpdate(table.tableName, collection, 1),
          ],
        }),
      ),
    );
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
};

/** Removes an item from a collection and its count, in one transaction. False when there was none. */
export const deleteFromCollection = async (table: TableRef, key: { pk: string; sk: string }, collection: string): Promise<boolean> => {
  try {
    await withConflictRetry(() =>
      table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: table.tableName, Key: key, ConditionExpression: 'attribute_exists(pk)' } },
            counterUpdate(table.tableName, collection, -1),
          ],
        }),
      ),
    );
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
};
