import { systemClock, type Clock } from '../../core/clock';
import { type DeliveryQueue, sendAll } from '../../core/webhooks/delivery';
import type { TableRef } from '../dynamodb/client';
import { sqsDeliveryQueue } from '../queue/sqs-delivery-queue';

type LocalQueueFactory = (table: TableRef, clock: Clock) => DeliveryQueue;

let localQueue: LocalQueueFactory | undefined;

/**
 * The local runtime's table-backed queue (`lib/local`), set before it loads any handler. The
 * functions themselves never import it, so a Lambda bundle carries the SQS queue alone.
 */
export const useLocalDeliveryQueue = (factory: LocalQueueFactory): void => {
  localQueue = factory;
};

/**
 * SQS in AWS (DELIVERY_QUEUE_URL); the table-backed queue only in the local runtime
 * (LOCAL_DELIVERY_QUEUE=table, with the queue the runtime set). Anywhere else a missing queue is an
 * error, never a silent fallback. Imported only by the functions that queue deliveries.
 */
export const deliveryQueueFromEnvironment = (table: TableRef, clock: Clock = systemClock): DeliveryQueue => {
  let queue: DeliveryQueue | undefined;
  // Chosen on the first send, so that loading the function never fails for want of a setting.
  const resolve = (): DeliveryQueue => {
    const queueUrl = process.env.DELIVERY_QUEUE_URL;
    if (queueUrl) return sqsDeliveryQueue(queueUrl, clock);
    if (process.env.LOCAL_DELIVERY_QUEUE === 'table' && localQueue) return localQueue(table, clock);
    throw new Error('DELIVERY_QUEUE_URL is not set: this function has no delivery queue');
  };
  return {
    send: (message) => (queue ??= resolve()).send(message),
    sendMany: (messages) => sendAll((queue ??= resolve()), messages),
  };
};
