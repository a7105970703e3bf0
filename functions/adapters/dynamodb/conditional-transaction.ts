import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client';
import { conditionFailedAt, type TransactItem, withConflictRetry } from './transactions';

/**
 * Runs the transaction, again on a conflict with another one (`withConflictRetry`): true when it
 * was written, false when the condition of its first item failed and nothing was.
 */
export const transactUnlessFirstConditionFails = async (client: TableRef['client'], items: TransactItem[]): Promise<boolean> => {
  try {
    await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
};
