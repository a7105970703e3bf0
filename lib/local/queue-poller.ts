import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LeasedMessage, LocalDeliveryQueue } from './local-delivery-queue';
import { dispatcherBatchSize, localDispatcherConcurrentBatches } from '../constructs/dispatcher-event-source';

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** As the SQS queue's redrive policy: after this many receives a message goes to the dead letters. */
export const maxReceiveCount = 5;

export interface QueuePollerOptions {
  /** Messages per invocation (the event source's batch size). */
  batchSize?: number;
  /** Invocations running at once, at most. */
  concurrentBatches?: number;
  /** The longest sleep while nothing is due. */
  maxIdleMs?: number;
}

const toSqsRecord = (leased: LeasedMessage): SQSRecord =>
  ({
    messageId: leased.id,
    receiptHandle: leased.id,
    body: JSON.stringify(leased.message),
    attributes: { ApproximateReceiveCount: String(leased.receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:deliveries',
    awsRegion: 'local',
  }) as SQSRecord;

/**
 * What the SQS event source does in AWS, done locally: receives due messages from the local delivery
 * queue in batches of `batchSize`, invokes the same dispatcher handler with each batch, up to
 * `concurrentBatches` invocations at once, deletes the messages the handler processed and leaves
 * the ones it reported failed (or all of a batch whose invocation threw) hidden until their
 * visibility timeout, when they come back. It sleeps while nothing is due, until the earliest
 * message is (so retries keep their exact schedule) or a new one is sent.
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
  const invoke = async (batch: LeasedMessage[]): Promise<void> => {
    try {
      const { batchItemFailures } = await handler({ Records: batch.map(toSqsRecord) });
      const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
      await Promise.all(batch.filter((leased) => !failed.has(leased.id)).map((leased) => acknowledge(leased)));
    } catch (error) {
      if (running) console.error('local delivery queue:', (error as Error).message);
    }
  };

  /** Past the redrive policy's count, a message is set aside instead of delivered. */
  const deliverable = async (batch: LeasedMessage[]): Promise<LeasedMessage[]> => {
    const kept: LeasedMessage[] = [];
    for (const leased of batch) {
      if (leased.receiveCount <= maxReceiveCount) kept.push(leased);
      else {
        console.error('local delivery queue: dead letter', JSON.stringify(leased.message));
        await acknowledge(leased);
      }
    }
    return kept;
  };

  /** Starts one invocation per batch of `batchSize`, the dead letters set aside first. */
  const invokeInBatches = async (received: LeasedMessage[]): Promise<void> => {
    const messages = await deliverable(received);
    for (let i = 0; i < messages.length; i += batchSize) {
      const invocation: Promise<void> = invoke(messages.slice(i, i + batchSize)).finally(() => inFlight.delete(invocation));
      inFlight.add(invocation);
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
        else await invokeInBatches(received);
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
