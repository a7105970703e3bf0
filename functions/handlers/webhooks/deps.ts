import { systemClock } from '../../core/clock';
import type { RedeliveryDeps, WebhookDeps, WebhookTargetDeps, WebhookTestDeps } from '../../core/webhooks/webhook-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryCreation, dynamoDeliveryRepository, dynamoDeliveryRestarts } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository, dynamoWebhookWrites, webhookReads } from '../../adapters/dynamodb/webhook-repository';
import { postWebhook } from '../../adapters/http/webhook-http-client';
import { assessTarget } from '../../adapters/http/target-resolution';
import { targetPolicyFor, testAttemptTimeoutFromEnvironment, webhookUserAgent } from '../../adapters/runtime/webhook-runtime';
import type { TableRef } from '../../adapters/dynamodb/client';
import type { DeliveryQueue } from '../../core/webhooks/delivery';

/*
 * Each route wires what its use case takes: create and update check a URL (the target's
 * resolution, no HTTP client), test sends one attempt (the HTTP client, no queue), redeliver and
 * recover queue deliveries (no HTTP client, no target checks). The reads wire their repositories
 * in their own file.
 */

/** Create and update: the URL is checked against the target policy before it is stored. */
export const webhookTargetDeps = (): WebhookTargetDeps => ({
  webhooks: dynamoWebhookWrites(tableFromEnvironment()),
  clock: systemClock,
  policyFor: targetPolicyFor,
  assessTarget: (url, policy) => assessTarget(url, policy),
});

/** Test: one signed attempt, recorded as a delivery. */
export const webhookTestDeps = (): WebhookTestDeps => {
  const table = tableFromEnvironment();
  return {
    webhooks: webhookReads(table),
    deliveries: dynamoDeliveryCreation(table),
    clock: systemClock,
    policyFor: targetPolicyFor,
    send: postWebhook,
    userAgent: webhookUserAgent,
    testAttemptTimeoutMs: testAttemptTimeoutFromEnvironment(),
  };
};

/** Redeliver and recover: the deliveries are restarted and queued for the dispatcher. */
export const redeliveryDeps = (queueOf: (table: TableRef) => DeliveryQueue): RedeliveryDeps => {
  const table = tableFromEnvironment();
  return { webhooks: webhookReads(table), deliveries: dynamoDeliveryRestarts(table), queue: queueOf(table), clock: systemClock };
};

const noQueue: DeliveryQueue = {
  send: async () => {
    throw new Error('this function queues no deliveries');
  },
};

/** Everything a webhook use case may need: for the dashboard's webhook pages, which serve several. */
export const webhookDeps = (queueOf: (table: TableRef) => DeliveryQueue = () => noQueue): WebhookDeps => ({
  ...webhookTargetDeps(),
  ...webhookTestDeps(),
  webhooks: dynamoWebhookRepository(tableFromEnvironment()),
  deliveries: dynamoDeliveryRepository(tableFromEnvironment()),
  queue: queueOf(tableFromEnvironment()),
});
