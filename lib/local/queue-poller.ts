import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { systemClock } from '../../functions/core/clock';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { type LeasedMessage, sentMessages, tableDeliveryQueue } from '../../functions/adapters/queue/table-delivery-queue';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** As the SQS queue's redrive policy: after this many receives a message goes to the dead letters. */
export const maxReceiveCount = 5;

/** Messages processed at once, like several concurrent dispatcher invocations. */
const maxInFlight = 32;

const toSqsRecord = (leased: LeasedMessage): SQSRecord =>
  ({
    messageId: leased.key.sk,
    receiptHandle: leased.key.sk,
    body: JSON.stringify(leased.message),
    attributes: { ApproximateReceiveCount: String(leased.receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:deliveries',
    awsRegion: 'local',
  }) as SQSRecord;

/**
 * What the SQS event source does in AWS, done locally: takes due messages from the table-backed
 * queue, hands each to the same dispatcher handler (many at once), deletes the ones it processed
 * and lets the failed ones come back after their visibility timeout.
 */
export const startQueuePoller = (table: TableRef, handler: QueueHandler, maxIdleMs = 1_000): { stop(): Promise<void> } => {
  const { receive, acknowledge, nextVisibleAt } = tableDeliveryQueue(table, systemClock);
  let running = true;
  let wake: (() => void) | undefined;
  const onSent = (): void => wake?.();
  sentMessages.on('sent', onSent);

  /** Sleeps until the earliest message is due (so retries keep their exact schedule), a new one is sent, or stop. */
  const idle = async (): Promise<void> => {
    const due = await nextVisibleAt();
    const waitMs = Math.min(maxIdleMs, due === undefined ? maxIdleMs : Math.max(0, due - Date.now()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
  };
  const inFlight = new Set<Promise<void>>();

  /** One message, one invocation: a slow target holds up nothing else, as with SQS's parallel batches. */
  const process = async (leased: LeasedMessage): Promise<void> => {
    try {
      const { batchItemFailures } = await handler({ Records: [toSqsRecord(leased)] });
      // A failed message stays hidden until its visibility timeout, then comes back.
      if (batchItemFailures.length === 0) await acknowledge(leased.key);
    } catch (error) {
      if (running) console.error('local delivery queue:', (error as Error).message);
    }
  };

  const loop = (async () => {
    while (running) {
      try {
        const room = maxInFlight - inFlight.size;
        if (room <= 0) {
          await Promise.race(inFlight);
          continue;
        }
        // As many as there is room for, leased in one call (SQS hands a function up to 10 per batch; here the batch is cheap).
        const batch = await receive(room);
        for (const leased of batch) {
          if (leased.receiveCount > maxReceiveCount) {
            console.error('local delivery queue: dead letter', JSON.stringify(leased.message));
            await acknowledge(leased.key);
            continue;
          }
          const work: Promise<void> = process(leased).finally(() => inFlight.delete(work));
          inFlight.add(work);
        }
        if (batch.length === 0) await idle();
      } catch (error) {
        if (running) console.error('local delivery queue:', (error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();
  return {
    async stop() {
      running = false;
      sentMessages.off('sent', onSent);
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
};
