/** A condition expression with its own names and values, to be joined to another with AND. */
export interface Condition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * Holds while every attribute of `expected` is still stored as it was read (null: absent or NULL):
 * the representation an `If-Match` named is the one being changed, whoever else writes the item.
 */
export const unchangedCondition = (expected: Record<string, unknown>): Condition => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = Object.entries(expected)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], i) => {
      names[`#u${i}`] = name;
      if (value === null) {
        values[':unull'] = 'NULL';
        return `(attribute_not_exists(#u${i}) OR attribute_type(#u${i}, :unull))`;
      }
      values[`:u${i}`] = value;
      return `#u${i} = :u${i}`;
    });
  return { expression: parts.join(' AND '), names, values };
};

/** `condition AND the other`, with both sets of names and values. */
export const withCondition = <
  T extends { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> },
>(
  request: T & { ConditionExpression: string },
  condition: Condition | undefined,
): T & { ConditionExpression: string } =>
  condition
    ? {
        ...request,
        ConditionExpression: `(${request.ConditionExpression}) AND ${condition.expression}`,
        ExpressionAttributeNames: { ...request.ExpressionAttributeNames, ...condition.names },
        ExpressionAttributeValues: { ...request.ExpressionAttributeValues, ...condition.values },
      }
    : request;
