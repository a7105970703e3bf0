import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../core/clock';
import type { DeliveryMessage, DeliveryQueue } from '../../core/webhooks/delivery';
import type { TableRef } from '../dynamodb/client';
import { entityTypes } from '../dynamodb/keys';
import * as keys from '../dynamodb/table-keys';

/** Told of every message sent in this process, so a local poller can wake at its due time. */
export const sentMessages = new EventEmitter<{ sent: [dueMs: number] }>();

/** A message taken for processing is hidden this long; if its processor dies, it comes back. */
export const visibilityTimeoutMs = 30_000;

export interface LeasedMessage {
  key: { pk: string; sk: string };
  receiveCount: number;
  message: DeliveryMessage;
}

/** On every call this queue makes: the bench counts them apart from the service's (in AWS they are SQS calls). */
export const localQueueCallHeader = 'x-local-delivery-queue';

/** `command`, marked as one of this queue's calls. */
const queueCall = <C>(command: C): C => {
  type Step = (args: { request: unknown }) => Promise<unknown>;
  const marked = command as unknown as {
    middlewareStack: { add(middleware: (next: Step) => Step, options: { step: 'build' }): void };
  };
  marked.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> } | undefined;
      if (request?.headers) request.headers[localQueueCallHeader] = '1';
      return next(args);
    },
    { step: 'build' },
  );
  return command;
};

/** DynamoDB takes at most 25 writes per BatchWriteItem and 100 per transaction. */
const maxBatchWrites = 25;
const maxLeasesPerTransaction = 100;
/** How long an acknowledgement waits for others to share its delete call. */
const ackWindowMs = 5;

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** Every request written, 25 per call, again for what DynamoDB left unprocessed. */
const writeInBatches = async (table: TableRef, requests: readonly WriteRequest[]): Promise<void> => {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += maxBatchWrites) batches.push(requests.slice(i, i + maxBatchWrites));
  await Promise.all(
    batches.map(async (batch) => {
      let pending: WriteRequest[] = batch;
      for (let round = 0; pending.length > 0; round += 1) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 20 * 2 ** round)));
        const { UnprocessedItems } = await table.client.send(
          queueCall(new BatchWriteCommand({ RequestItems: { [table.tableName]: pending } })),
        );
        pending = (UnprocessedItems?.[table.tableName] ?? []) as WriteRequest[];
      }
    }),
  );
};

/**
 * The local runtime's delivery queue, with SQS's semantics, kept in DynamoDB Local so that a
 * restart loses nothing: messages become visible at `not_before`, are leased while processed and
 * deleted when done.
 */
export const tableDeliveryQueue = (table: TableRef, clock: Clock, options: { visibilityTimeoutMs?: number } = {}) => {
  const hiddenForMs = options.visibilityTimeoutMs ?? visibilityTimeoutMs;
  const itemOf = (message: DeliveryMessage) => ({
    ...keys.queuedMessage(message.not_before, randomUUID()),
    entity: entityTypes.queuedMessage,
    message,
    visible_at: message.not_before,
    receive_count: 0,
  });

  const queue: DeliveryQueue = {
    async send(message) {
      await table.client.send(queueCall(new PutCommand({ TableName: table.tableName, Item: itemOf(message) })));
      sentMessages.emit('sent', message.not_before);
    },
    async sendMany(messages) {
      const requests = messages.map((message) => ({ PutRequest: { Item: itemOf(message) } }));
      await writeInBatches(table, requests);
      for (const message of messages) sentMessages.emit('sent', message.not_before);
    },
  };

  /** When the earliest message becomes visible, if there is one. */
  const nextVisibleAt = async (): Promise<number | undefined> => {
    let earliest: number | undefined;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        queueCall(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'pk = :pk',
            ProjectionExpression: 'visible_at',
            ExpressionAttributeValues: { ':pk': keys.queuedMessages },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        ),
      );
      for (const item of page.Items ?? []) earliest = Math.min(earliest ?? Infinity, Number(item.visible_at));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return earliest;
  };

  /** Up to `max` messages due now and not leased: read page by page past those being processed, which keep their place at the head. */
  const dueMessages = async (now: number, max: number): Promise<Record<string, unknown>[]> => {
    const due: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        queueCall(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'pk = :pk AND sk <= :now',
            FilterExpression: 'visible_at <= :nowMs',
            ExpressionAttributeValues: { ':pk': keys.queuedMessages, ':now': `${String(now).padStart(15, '0')}#~`, ':nowMs': now },
            Limit: Math.max(50, max * 2),
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        ),
      );
      due.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey && due.length < max);
    return due.slice(0, max);
  };

  /** Leases up to `max` messages that are due now, in one transaction (again without those another poller took). */
  const receive = async (max: number): Promise<LeasedMessage[]> => {
    const now = clock.now();
    let candidates = await dueMessages(now, Math.min(max, maxLeasesPerTransaction));
    while (candidates.length > 0) {
      try {
        await table.client.send(
          queueCall(
            new TransactWriteCommand({
              TransactItems: candidates.map((item) => ({
                Update: {
                  TableName: table.tableName,
                  Key: { pk: item.pk, sk: item.sk },
                  UpdateExpression: 'SET visible_at = :hiddenUntil, receive_count = :count',
                  ConditionExpression: 'attribute_exists(pk) AND visible_at <= :now AND receive_count = :seen',
                  ExpressionAttributeValues: {
                    ':hiddenUntil': now + hiddenForMs,
                    ':now': now,
                    ':seen': Number(item.receive_count ?? 0),
                    ':count': Number(item.receive_count ?? 0) + 1,
                  },
                },
              })),
            }),
          ),
        );
        return candidates.map((item) => ({
          key: { pk: item.pk as string, sk: item.sk as string },
          receiveCount: Number(item.receive_count ?? 0) + 1,
          message: item.message as DeliveryMessage,
        }));
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        // Taken or deleted meanwhile: lease the others.
        const reasons = error.CancellationReasons ?? [];
        const taken = new Set(reasons.flatMap((reason, i) => (reason.Code === 'ConditionalCheckFailed' ? [i] : [])));
        if (taken.size === 0) return [];
        candidates = candidates.filter((_, i) => !taken.has(i));
      }
    }
    return [];
  };

  /** Deletes processed messages, many per call: those acknowledged within a few milliseconds go together. */
  let pendingAcks: { key: { pk: string; sk: string }; done: (error?: unknown) => void }[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flushAcks = (): void => {
    flushTimer = undefined;
    const acks = pendingAcks;
    pendingAcks = [];
    writeInBatches(
      table,
      acks.map(({ key }) => ({ DeleteRequest: { Key: key } })),
    ).then(
      () => acks.forEach(({ done }) => done()),
      (error: unknown) => acks.forEach(({ done }) => done(error)),
    );
  };
  const acknowledge = (key: { pk: string; sk: string }): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      pendingAcks.push({ key, done: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (pendingAcks.length >= maxBatchWrites) {
        clearTimeout(flushTimer);
        flushAcks();
      } else flushTimer ??= setTimeout(flushAcks, ackWindowMs);
    });

  return { queue, receive, acknowledge, nextVisibleAt };
};
