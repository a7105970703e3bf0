import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** True when the transaction was cancelled because the condition of item `index` failed. */
export const conditionFailedAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
