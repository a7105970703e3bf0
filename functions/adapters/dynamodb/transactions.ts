import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

/** True when the transaction was cancelled because the condition of item `index` failed. */
export const conditionFailedAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

export const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');

/**
 * Runs a transaction, again when DynamoDB cancelled it only because another transaction touched
 * the same item at once (a collection counter, say): the SDK does not retry that by itself.
 */
export const withConflictRetry = async <T>(run: () => Promise<T>, attempts = 4): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
};

/** One item of a TransactWriteItems request. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Puts `item` only if the stored one is still at `revision` (optimistic concurrency). */
export const revisionPut = (tableName: string, item: Record<string, unknown>, revision: number): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: item,
    ConditionExpression: '#revision = :revision',
    ExpressionAttributeNames: { '#revision': 'revision' },
    ExpressionAttributeValues: { ':revision': revision },
  },
});
