import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';
import { isConditionFailure } from './transactions';
import { type Condition, withCondition } from './unchanged-condition';

/** `SET` of the given attributes (undefined ones are left alone), with its names and values. */
export const setExpression = (
  attributes: Record<string, unknown>,
): { UpdateExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> } => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .forEach(([name, value], i) => {
      names[`#a${i}`] = name;
      values[`:v${i}`] = value;
      sets.push(`#a${i} = :v${i}`);
    });
  return { UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
};

/**
 * Sets the given attributes of an existing item (undefined ones are left alone) and returns the
 * item as stored afterwards, or undefined when there is no such item. With `unchanged`, only while
 * that condition holds too: `changed` when the item is there but no longer as it was read.
 */
export const updateExisting = async (
  table: TableRef,
  key: { pk: string; sk: string },
  attributes: Record<string, unknown>,
  unchanged?: Condition,
): Promise<Record<string, unknown> | undefined | 'changed'> => {
  try {
    const result = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: key,
        ...withCondition({ ...setExpression(attributes), ConditionExpression: 'attribute_exists(pk)' }, unchanged),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!unchanged) return undefined;
    const current = await table.client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }));
    return current.Item ? 'changed' : undefined;
  }
};
