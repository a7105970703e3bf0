import { jest } from '@jest/globals';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { tableQueueStore } from '../../functions/adapters/queue/table-delivery-queue';
import { type DeliveryMessage, sendAll } from '../../functions/core/webhooks/delivery';
import { type LocalDeliveryQueue, localDeliveryQueue, type QueueStore } from '../../lib/local/local-delivery-queue';
import { localDeadLetterQueueArn, localDeliveryQueueArn, startQueuePoller } from '../../lib/local/queue-poller';
import { useDynamoDbLocal } from './support/table';

/**
 * The local runtime's queue poller on its delivery queue: batches, a bound on the batches running
 * at once, and SQS's visibility timeout for what a batch did not process. Twice: in memory (an
 * in-memory runtime), and kept in DynamoDB Local's table (a runtime with a data folder), where the
 * messages are sent before a restart (another queue on the same table) and processed after it.
 */
const dynamodb = useDynamoDbLocal();

const message = (deliveryId: string): DeliveryMessage => ({
  account_id: 'acct_poller',
  mode: 'test',
  webhook_id: 'wh_poller',
  delivery_id: deliveryId,
  sequence: 1,
  attempt: 1,
  not_before: Date.now(),
});

interface Invocation {
  ids: string[];
  receiveCounts: number[];
  startedAt: number;
}

const idsOf = (event: SQSEvent): string[] => event.Records.map((record) => (JSON.parse(record.body) as DeliveryMessage).delivery_id);

/** Resolves when `done()` holds, checked every few milliseconds; fails the test after `timeoutMs`. */
const waitFor = async (done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each([
  ['in memory', false],
  ['kept in the table across a restart', true],
])('local queue poller, %s', (_, stored) => {
  let store: QueueStore | undefined;
  let poller: { stop(): Promise<void> } | undefined;
  beforeEach(async () => {
    store = stored ? tableQueueStore(await dynamodb.freshTable()) : undefined;
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
  });

  /** A queue to send to, and the one the poller reads: the same, or after a restart a new one on the same table. */
  const queues = (visibilityTimeoutMs?: number) => {
    const sender = localDeliveryQueue({ store, visibilityTimeoutMs });
    return {
      send: (ids: string[]) => sendAll(sender.queue, ids.map(message)),
      receiver: async (): Promise<LocalDeliveryQueue> => {
        const deliveries = store ? localDeliveryQueue({ store, visibilityTimeoutMs }) : sender;
        await deliveries.start();
        return deliveries;
      },
    };
  };
  /** What is left: messages in the store (with one) and in the queue. */
  const leftOver = async (deliveries: LocalDeliveryQueue) => ({
    stored: store ? (await store.load()).length : 0,
    held: deliveries.size(),
    next: deliveries.nextVisibleAt(),
  });
  const nothingLeft = { stored: 0, held: 0, next: undefined };

  it('hands messages over in batches of at most batchSize, at most concurrentBatches at once, each processed once', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => `d-${i}`);
    const { send, receiver } = queues();
    await send(ids);
    const invocations: Invocation[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      invocations.push({ ids: idsOf(event), receiveCounts: [], startedAt: Date.now() });
      // Every invocation waits until another is running beside it (or nothing is left to start).
      const processed = () => invocations.reduce((n, inv) => n + inv.ids.length, 0);
      await waitFor(() => running >= 2 || processed() >= ids.length, 'a second batch beside the first');
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return { batchItemFailures: [] };
    };
    const deliveries = await receiver();
    poller = startQueuePoller(deliveries, handler, { batchSize: 4, concurrentBatches: 2 });

    await waitFor(() => invocations.reduce((n, inv) => n + inv.ids.length, 0) >= ids.length, 'every message');
    await waitFor(() => running === 0, 'the last batch to end');
    const handed = invocations.flatMap((inv) => inv.ids);
    expect(handed.sort()).toEqual([...ids].sort());
    expect(Math.max(...invocations.map((inv) => inv.ids.length))).toBeLessThanOrEqual(4);
    expect(mostAtOnce).toBe(2);
    await poller.stop();
    poller = undefined;
    // Every processed message was deleted.
    expect(await leftOver(deliveries)).toEqual(nothingLeft);
  });

  it('counts a message from its send until its batch has ended and it is acknowledged, not when it is received', async () => {
    const { send, receiver } = queues();
    await send(['a', 'b', 'c']);
    const deliveries = await receiver();
    expect(deliveries.size()).toBe(3);
    let release: (() => void) | undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const handler = async (): Promise<SQSBatchResponse> => {
      started = true;
      await released;
      return { batchItemFailures: [] };
    };
    poller = startQueuePoller(deliveries, handler, { batchSize: 10, concurrentBatches: 1 });

    await waitFor(() => started, 'the batch to start');
    // Received and being processed: still held, as the bench's wait for an empty queue relies on.
    expect(deliveries.size()).toBe(3);
    release?.();
    await waitFor(() => deliveries.size() === 0, 'the batch to be acknowledged');
    await poller.stop();
    poller = undefined;
    expect(await leftOver(deliveries)).toEqual(nothingLeft);
  });

  it('a batch whose invocation fails comes back whole after its visibility timeout, while other batches go on', async () => {
    const visibilityTimeoutMs = 3_000;
    const ids = Array.from({ length: 12 }, (_, i) => `d-${i}`);
    const { send, receiver } = queues(visibilityTimeoutMs);
    await send(ids);
    const deliveries = await receiver();
    // Nothing is leased before this moment: the poller starts after it.
    const sentAt = Date.now();
    const invocations: Invocation[] = [];
    let failedBatch: string[] | undefined;
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const batch = idsOf(event);
      invocations.push({
        ids: batch,
        receiveCounts: event.Records.map((record) => Number(record.attributes.ApproximateReceiveCount)),
        startedAt: Date.now(),
      });
      if (batch.includes('d-0') && failedBatch === undefined) {
        failedBatch = batch;
        throw new Error('the dispatcher crashed');
      }
      return { batchItemFailures: [] };
    };
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    poller = startQueuePoller(deliveries, handler, { batchSize: 2, concurrentBatches: 3 });

    const seen = (id: string) => invocations.filter((inv) => inv.ids.includes(id));
    await waitFor(() => ids.every((id) => seen(id).length > 0), 'every message once');
    await waitFor(() => seen('d-0').length === 2, 'the failed batch to come back');
    const again = seen('d-0')[1] as Invocation;
    // The whole batch again, received a second time, not before its visibility timeout.
    expect(again.ids.sort()).toEqual([...(failedBatch ?? [])].sort());
    expect(again.receiveCounts).toEqual(again.ids.map(() => 2));
    expect(again.startedAt - sentAt).toBeGreaterThanOrEqual(visibilityTimeoutMs);
    // Meanwhile every other message went through once, and none of them comes back.
    const others = ids.filter((id) => !failedBatch?.includes(id));
    for (const id of others) expect(seen(id)).toHaveLength(1);
    expect(Math.max(...others.map((id) => (seen(id)[0] as Invocation).startedAt))).toBeLessThan(again.startedAt);
    expect(logged).toHaveBeenCalledWith('local delivery queue:', 'the dispatcher crashed');
    logged.mockRestore();
  });

  it('a message the handler reports failed comes back alone; the rest of its batch is deleted', async () => {
    const visibilityTimeoutMs = 1_000;
    const { send, receiver } = queues(visibilityTimeoutMs);
    await send(['a', 'b', 'c']);
    const deliveries = await receiver();
    const invocations: Invocation[] = [];
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      invocations.push({ ids: idsOf(event), receiveCounts: [], startedAt: Date.now() });
      const firstTime = event.Records.filter((record) => record.attributes.ApproximateReceiveCount === '1');
      const failing = firstTime.find((record) => (JSON.parse(record.body) as DeliveryMessage).delivery_id === 'b');
      return { batchItemFailures: failing ? [{ itemIdentifier: failing.messageId }] : [] };
    };
    poller = startQueuePoller(deliveries, handler, { batchSize: 10, concurrentBatches: 1 });

    await waitFor(() => invocations.flatMap((inv) => inv.ids).filter((id) => id === 'b').length === 2, "'b' to come back");
    await poller.stop();
    poller = undefined;
    const handed = invocations.flatMap((inv) => inv.ids);
    expect(handed.filter((id) => id === 'a')).toHaveLength(1);
    expect(handed.filter((id) => id === 'c')).toHaveLength(1);
    expect(invocations.at(-1)?.ids).toEqual(['b']);
    expect(await leftOver(deliveries)).toEqual(nothingLeft);
  });

  it('hands a message failed 5 times to the handler as a dead letter (its own source ARN), until the handler processes it', async () => {
    const visibilityTimeoutMs = 200;
    const { send, receiver } = queues(visibilityTimeoutMs);
    await send(['ok', 'poison']);
    const deliveries = await receiver();
    const calls: { id: string; arn: string; receiveCount: number }[] = [];
    let deadLetterFailuresLeft = 1;
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const failures: string[] = [];
      for (const record of event.Records) {
        const id = (JSON.parse(record.body) as DeliveryMessage).delivery_id;
        calls.push({ id, arn: record.eventSourceARN, receiveCount: Number(record.attributes.ApproximateReceiveCount) });
        if (id !== 'poison') continue;
        // The dispatcher fails on it every time; as a dead letter it fails once more, then settles it.
        if (record.eventSourceARN === localDeliveryQueueArn) failures.push(record.messageId);
        else if (deadLetterFailuresLeft-- > 0) failures.push(record.messageId);
      }
      return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
    };
    poller = startQueuePoller(deliveries, handler, { batchSize: 10, concurrentBatches: 2 });

    await waitFor(() => deliveries.size() === 0, 'the dead letter to be settled and deleted');
    await poller.stop();
    poller = undefined;
    expect(calls.filter((call) => call.id === 'ok')).toEqual([{ id: 'ok', arn: localDeliveryQueueArn, receiveCount: 1 }]);
    expect(calls.filter((call) => call.id === 'poison')).toEqual([
      ...[1, 2, 3, 4, 5].map((receiveCount) => ({ id: 'poison', arn: localDeliveryQueueArn, receiveCount })),
      // Failed as a dead letter too: back after its visibility timeout, a dead letter still.
      { id: 'poison', arn: localDeadLetterQueueArn, receiveCount: 6 },
      { id: 'poison', arn: localDeadLetterQueueArn, receiveCount: 7 },
    ]);
    expect(await leftOver(deliveries)).toEqual(nothingLeft);
  });
});
