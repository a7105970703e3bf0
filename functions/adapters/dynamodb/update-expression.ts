import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';
import { isConditionFailure } from './transactions';

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
 * item as stored afterwards, or undefined when there is no such item.
 */
export const updateExisting = async (
  table: TableRef,
  key: { pk: string; sk: string },
  attributes: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> => {
  try {
    const result = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: key,
        ...setExpression(attributes),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};
