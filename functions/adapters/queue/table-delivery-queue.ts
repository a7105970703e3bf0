import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryMessage } from '../../core/webhooks/delivery';
import type { TableRef } from '../dynamodb/client';
import { entityTypes } from '../dynamodb/keys';
import * as keys from '../dynamodb/table-keys';

/** A queued message as the table keeps it (the local runtime's `QueueStore`, lib/local/local-delivery-queue.ts). */
export interface TableQueuedMessage {
  id: string;
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

/** DynamoDB takes at most 25 writes per BatchWriteItem. */
const maxBatchWrites = 25;
/** How long a delete waits for others to share its call. */
const removeWindowMs = 5;

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
 * Where the local runtime with a data folder keeps its delivery queue's messages, so that a restart
 * loses none: one item per message from its send to its acknowledgement, written 25 to a call.
 * Which message is visible or leased is the queue's own business, in memory (a lease does not
 * outlive the process that took it).
 */
export const tableQueueStore = (table: TableRef) => {
  const keyOf = (stored: TableQueuedMessage) => keys.queuedMessage(stored.message.not_before, stored.id);

  /** Every stored message, in key order (due time, then id). */
  const load = async (): Promise<TableQueuedMessage[]> => {
    const stored: TableQueuedMessage[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        queueCall(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'pk = :pk',
            ProjectionExpression: 'sk, message',
            ExpressionAttributeValues: { ':pk': keys.queuedMessages },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        ),
      );
      for (const item of page.Items ?? []) {
        stored.push({ id: String(item.sk).slice(String(item.sk).indexOf('#') + 1), message: item.message as DeliveryMessage });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return stored;
  };

  const put = (messages: readonly TableQueuedMessage[]): Promise<void> =>
    writeInBatches(
      table,
      messages.map((stored) => ({
        PutRequest: { Item: { ...keyOf(stored), entity: entityTypes.queuedMessage, message: stored.message } },
      })),
    );

  /** Those removed within a few milliseconds of one another share their calls. */
  let pending: { key: { pk: string; sk: string }; done: (error?: unknown) => void }[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    flushTimer = undefined;
    const removals = pending;
    pending = [];
    writeInBatches(
      table,
      removals.map(({ key }) => ({ DeleteRequest: { Key: key } })),
    ).then(
      () => removals.forEach(({ done }) => done()),
      (error: unknown) => removals.forEach(({ done }) => done(error)),
    );
  };
  const removeOne = (stored: TableQueuedMessage): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      pending.push({ key: keyOf(stored), done: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (pending.length >= maxBatchWrites) {
        clearTimeout(flushTimer);
        flush();
      } else flushTimer ??= setTimeout(flush, removeWindowMs);
    });
  const remove = async (messages: readonly TableQueuedMessage[]): Promise<void> => {
    await Promise.all(messages.map(removeOne));
  };

  return { load, put, remove };
};
