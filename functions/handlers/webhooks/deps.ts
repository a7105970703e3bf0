import { systemClock } from '../../core/clock';
import type { WebhookDeps } from '../../core/webhooks/webhook-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { assessTarget, postWebhook } from '../../adapters/http/webhook-http-client';
import { targetPolicyFor, testAttemptTimeoutFromEnvironment, webhookUserAgent } from '../../adapters/runtime/webhook-runtime';
import type { TableRef } from '../../adapters/dynamodb/client';
import type { DeliveryQueue } from '../../core/webhooks/delivery';

const noQueue: DeliveryQueue = {
  send: async () => {
    throw new Error('this function queues no deliveries');
  },
};

/**
 * Everything a webhook use case may need, for the routes whose use case takes all of it (create,
 * update, test, redeliver, recover). The others wire only their repositories in their own file,
 * so a read carries no HTTP client or target checks. `queueOf` only for the routes that queue
 * deliveries (redeliver, recover): others carry no SQS client.
 */
export const webhookDeps = (queueOf: (table: TableRef) => DeliveryQueue = () => noQueue): WebhookDeps => {
  const table = tableFromEnvironment();
  return {
    webhooks: dynamoWebhookRepository(table),
    deliveries: dynamoDeliveryRepository(table),
    queue: queueOf(table),
    clock: systemClock,
    policyFor: targetPolicyFor,
    assessTarget: (url, policy) => assessTarget(url, policy),
    send: postWebhook,
    userAgent: webhookUserAgent,
    testAttemptTimeoutMs: testAttemptTimeoutFromEnvironment(),
  };
};
