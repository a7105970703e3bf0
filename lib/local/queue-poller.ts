import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { systemClock } from '../../functions/core/clock';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { type LeasedMessage, sentMessages, tableDeliveryQueue } from '../../functions/adapters/queue/table-delivery-queue';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** As the SQS queue's redrive policy: after this many receives a message goes to the dead letters. */
export const maxReceiveCount = 5;

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
 * queue in batches, hands them to the same dispatcher handler, deletes the ones it processed and
 * lets the failed ones come back after their visibility timeout.
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
  const loop = (async () => {
    while (running) {
      try {
        const batch = await receive(10);
        const poisoned = batch.filter((m) => m.receiveCount > maxReceiveCount);
        for (const message of poisoned) {
          console.error('local delivery queue: dead letter', JSON.stringify(message.message));
          await acknowledge(message.key);
        }
        const live = batch.filter((m) => m.receiveCount <= maxReceiveCount);
        if (live.length > 0) {
          const { batchItemFailures } = await handler({ Records: live.map(toSqsRecord) });
          const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
          await Promise.all(live.filter((m) => !failed.has(m.key.sk)).map((m) => acknowledge(m.key)));
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
    },
  };
};
