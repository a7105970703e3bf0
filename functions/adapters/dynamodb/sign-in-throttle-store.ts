import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SignInThrottleStore, ThrottleCounter } from '../../core/users/sign-in-throttle';
import type { TableRef } from './client';
import { entityTypes, ttlOf } from './keys';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

/** Failure counters of sign-in, shared by every function instance; TTL removes them after their window. */
export const dynamoSignInThrottleStore = ({ client, tableName }: TableRef, windowMs = 15 * 60_000): SignInThrottleStore => ({
  async read(throttleKeys, now) {
    const counters = new Map<string, ThrottleCounter>();
    if (throttleKeys.length === 0) return counters;
    const result = await client.send(
      new BatchGetCommand({
        RequestItems: { [tableName]: { Keys: throttleKeys.map((key) => keys.signInThrottle(key)), ConsistentRead: true } },
      }),
    );
    for (const item of result.Responses?.[tableName] ?? []) {
      const counter = { failures: item.failures as number, last_failure_at: item.last_failure_at as number };
      if (counter.last_failure_at + windowMs > now) counters.set(item.key as string, counter);
    }
    return counters;
  },

  async recordFailure(key, now, window) {
    const common = { TableName: tableName, Key: keys.signInThrottle(key) };
    try {
      // One more failure within the window of the last one: an atomic count.
      const result = await client.send(
        new UpdateCommand({
          ...common,
          UpdateExpression: 'ADD failures :one SET last_failure_at = :now, #ttl = :ttl',
          ConditionExpression: 'last_failure_at > :windowStart',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':ttl': ttlOf(now, window), ':windowStart': now - window },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { failures: result.Attributes?.failures as number, last_failure_at: now };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // No counter, or one whose window ended: start again at one.
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.signInThrottle(key),
          entity: entityTypes.signInThrottle,
          key,
          failures: 1,
          last_failure_at: now,
          ttl: ttlOf(now, window),
        },
      }),
    );
    return { failures: 1, last_failure_at: now };
  },

  async clear(key) {
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.signInThrottle(key) }));
  },
});
