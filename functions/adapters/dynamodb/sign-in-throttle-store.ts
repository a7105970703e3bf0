import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SignInThrottleStore, ThrottleCounter, ThrottleWrite } from '../../core/users/sign-in-throttle';
import type { TableRef } from './client';
import { entityTypes, ttlOf } from './keys';
import * as keys from './table-keys';
import { isConditionFailure, type TransactItem } from './transactions';

/** The revision read from a counter written before counters had one: the write then expects none. */
const noRevision = '';

/** The condition that the stored counter is still the one read (`expected`), or that there is none. */
const unchanged = (expected: string | undefined) =>
  expected === undefined
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : expected === noRevision
      ? {
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#revision)',
          ExpressionAttributeNames: { '#revision': 'revision' },
        }
      : {
          ConditionExpression: '#revision = :expected',
          ExpressionAttributeNames: { '#revision': 'revision' },
          ExpressionAttributeValues: { ':expected': expected },
        };

const itemOf = (tableName: string, { key, expected, next }: ThrottleWrite, windowMs: number): TransactItem =>
  next
    ? {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.signInThrottle(key),
            entity: entityTypes.signInThrottle,
            key,
            failures: next.failures,
            last_failure_at: next.last_failure_at,
            revision: next.revision,
            ttl: ttlOf(next.last_failure_at, windowMs),
          },
          ...unchanged(expected),
        },
      }
    : { Delete: { TableName: tableName, Key: keys.signInThrottle(key), ...unchanged(expected) } };

/** A write that lost a race: a condition failed, or another transaction held one of the items. */
const lostRace = (error: unknown): boolean =>
  isConditionFailure(error) ||
  (error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict'));

/**
 * Attempt counters of sign-in, shared by every function instance; TTL removes them after their
 * window. Every write is conditional on the revision read, and the writes of one attempt (its
 * e-mail and its address) go in one transaction, so two attempts never both count from one state.
 */
export const dynamoSignInThrottleStore = ({ client, tableName }: TableRef): SignInThrottleStore => ({
  async read(throttleKeys) {
    const counters = new Map<string, ThrottleCounter>();
    if (throttleKeys.length === 0) return counters;
    const result = await client.send(
      new BatchGetCommand({
        RequestItems: { [tableName]: { Keys: throttleKeys.map((key) => keys.signInThrottle(key)), ConsistentRead: true } },
      }),
    );
    for (const item of result.Responses?.[tableName] ?? []) {
      counters.set(item.key as string, {
        failures: item.failures as number,
        last_failure_at: item.last_failure_at as number,
        revision: (item.revision as string | undefined) ?? noRevision,
      });
    }
    return counters;
  },

  async writeCounters(writes, windowMs) {
    if (writes.length === 0) return true;
    const items = writes.map((write) => itemOf(tableName, write, windowMs));
    try {
      // One key needs no transaction: a conditional put or delete is as atomic, and cheaper.
      const [only] = items;
      if (items.length === 1 && only?.Put) await client.send(new PutCommand(only.Put));
      else if (items.length === 1 && only?.Delete) await client.send(new DeleteCommand(only.Delete));
      else await client.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  async clear(key) {
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.signInThrottle(key) }));
  },
});
