import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../core/webhooks/delivery';
import type { TableRef } from '../dynamodb/client';
import { entityTypes, keys } from '../dynamodb/keys';
import { isConditionFailure } from '../dynamodb/transactions';

/** Told of every message sent in this process, so a local poller can wake at its due time. */
export const sentMessages = new EventEmitter<{ sent: [dueMs: number] }>();

/** A message taken for processing is hidden this long; if its processor dies, it comes back. */
export const visibilityTimeoutMs = 30_000;

export interface LeasedMessage {
  key: { pk: string; sk: string };
  receiveCount: number;
  message: DeliveryMessage;
}

/**
 * The local runtime's delivery queue, with SQS's semantics, kept in DynamoDB Local so that a
 * restart loses nothing: messages become visible at `not_before`, are leased while processed and
 * deleted when done.
 */
export const tableDeliveryQueue = (table: TableRef, clock: Clock) => {
  const queue: DeliveryQueue = {
    async send(message) {
      await table.client.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...keys.queuedMessage(message.not_before, randomUUID()),
            entity: entityTypes.queuedMessage,
            message,
            visible_at: message.not_before,
            receive_count: 0,
          },
        }),
      );
      sentMessages.emit('sent', message.not_before);
    },
  };

  /** When the earliest message becomes visible, if there is one. */
  const nextVisibleAt = async (): Promise<number | undefined> => {
    let earliest: number | undefined;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ProjectionExpression: 'visible_at',
          ExpressionAttributeValues: { ':pk': keys.queuedMessages },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) earliest = Math.min(earliest ?? Infinity, Number(item.visible_at));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return earliest;
  };

  /** Leases up to `max` messages that are due now. */
  const receive = async (max: number): Promise<LeasedMessage[]> => {
    const now = clock.now();
    const due = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND sk <= :now',
        FilterExpression: 'visible_at <= :nowMs',
        ExpressionAttributeValues: { ':pk': keys.queuedMessages, ':now': `${String(now).padStart(15, '0')}#~`, ':nowMs': now },
        Limit: max * 4,
        ConsistentRead: true,
      }),
    );
    const leased: LeasedMessage[] = [];
    for (const item of due.Items ?? []) {
      if (leased.length >= max) break;
      const key = { pk: item.pk as string, sk: item.sk as string };
      try {
        const result = await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: key,
            UpdateExpression: 'SET visible_at = :hiddenUntil ADD receive_count :one',
            ConditionExpression: 'attribute_exists(pk) AND visible_at <= :now',
            ExpressionAttributeValues: { ':hiddenUntil': now + visibilityTimeoutMs, ':now': now, ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
        leased.push({ key, receiveCount: Number(result.Attributes?.receive_count ?? 1), message: item.message as DeliveryMessage });
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return leased;
  };

  const acknowledge = async (key: { pk: string; sk: string }): Promise<void> => {
    await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: key }));
  };

  return { queue, receive, acknowledge, nextVisibleAt };
};
