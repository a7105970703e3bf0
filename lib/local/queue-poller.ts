import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LeasedMessage, LocalDeliveryQueue } from './local-delivery-queue';
import { dispatcherBatchSize, localDispatcherConcurrentBatches } from '../constructs/dispatcher-event-source';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** As the SQS queue's redrive policy: after this many receives a message goes to the dead letters. */
export const maxReceiveCount = 5;

/** The event source ARN of the records the local queue hands over. */
export const localDeliveryQueueArn = 'arn:aws:sqs:local:000000000000:deliveries';
/**
 * The event source ARN of its dead letters: handed to the same handler, as the dead-letter queue's
 * own event source on the dispatcher does in AWS (the runtime sets DELIVERY_DEAD_LETTER_QUEUE_ARN to it).
 */
export const localDeadLetterQueueArn = 'arn:aws:sqs:local:000000000000:deliveries-dead-letters';

export interface QueuePollerOptions {
  /** Messages per invocation (the event source's batch size). */
  batchSize?: number;
  /** Invocations running at once, at most. */
  concurrentBatches?: number;
  /** The longest sleep while nothing is due. */
  maxIdleMs?: number;
}

const toSqsRecord = (leased: LeasedMessage, eventSourceARN: string): SQSRecord =>
  ({
    messageId: leased.id,
    receiptHandle: leased.id,
    body: JSON.stringify(leased.message),
    attributes: { ApproximateReceiveCount: String(leased.receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: 'local',
  }) as SQSRecord;

/**
 * What the SQS event source does in AWS, done locally: receives due messages from the local delivery
 * queue in batches of `batchSize`, invokes the same dispatcher handler with each batch, up to
 * `concurrentBatches` invocations at once, deletes the messages the handler processed and leaves
 * the ones it reported failed (or all of a batch whose invocation threw) hidden until their
 * visibility timeout, when they come back. A message received more than `maxReceiveCount` times is
 * a dead letter: handed to the same handler as one of `localDeadLetterQueueArn` (deleted when it
 * processed it, back after the visibility timeout, a dead letter still, when it did not). It sleeps
 * while nothing is due, until the earliest message is (so retries keep their exact schedule) or a
 * new one is sent.
 */
export const startQueuePoller = (
  deliveries: LocalDeliveryQueue,
  handler: QueueHandler,
  options: QueuePollerOptions = {},
): { stop(): Promise<void> } => {
  const batchSize = options.batchSize ?? dispatcherBatchSize;
  const concurrentBatches = options.concurrentBatches ?? localDispatcherConcurrentBatches;
  const maxIdleMs = options.maxIdleMs ?? 1_000;
  const { receive, acknowledge, nextVisibleAt } = deliveries;
  let running = true;
  let wake: (() => void) | undefined;
  const onSent = (): void => wake?.();
  deliveries.sent.on('sent', onSent);

  /** Sleeps until the earliest message is due (so retries keep their exact schedule), a new one is sent, or stop. */
  const idle = async (): Promise<void> => {
    const due = nextVisibleAt();
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

  /** One invocation: the processed messages are deleted; the failed ones come back after their visibility timeout. */
  const invoke = async (batch: LeasedMessage[], eventSourceArn: string): Promise<void> => {
    try {
      const { batchItemFailures } = await handler({ Records: batch.map((leased) => toSqsRecord(leased, eventSourceArn)) });
      const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
      await Promise.all(batch.filter((leased) => !failed.has(leased.id)).map((leased) => acknowledge(leased)));
    } catch (error) {
      if (running) console.error('local delivery queue:', (error as Error).message);
    }
  };

  /** Starts one invocation per batch of `batchSize`, the dead letters in batches of their own. */
  const invokeInBatches = (received: LeasedMessage[]): void => {
    const deadLetters = received.filter((leased) => leased.receiveCount > maxReceiveCount);
    const live = received.filter((leased) => leased.receiveCount <= maxReceiveCount);
    for (const [messages, arn] of [
      [live, localDeliveryQueueArn],
      [deadLetters, localDeadLetterQueueArn],
    ] as const) {
      for (let i = 0; i < messages.length; i += batchSize) {
        const invocation: Promise<void> = invoke(messages.slice(i, i + batchSize), arn).finally(() => inFlight.delete(invocation));
        inFlight.add(invocation);
      }
    }
  };

  const loop = (async () => {
    while (running) {
      try {
        const free = concurrentBatches - inFlight.size;
        if (free <= 0) {
          await Promise.race(inFlight);
          continue;
        }
        // The batches of every free poller at once.
        const received = receive(free * batchSize);
        if (received.length === 0) await idle();
        else invokeInBatches(received);
      } catch (error) {
        if (running) console.error('local delivery queue:', (error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  })();
  return {
    async stop() {
      running = false;
      deliveries.sent.off('sent', onSent);
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
};
