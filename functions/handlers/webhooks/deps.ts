import { systemClock } from '../../core/clock';
import type { WebhookDeps } from '../../core/webhooks/webhook-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { assessTarget, postWebhook } from '../../adapters/http/webhook-http-client';
import { deliveryQueueFromEnvironment, targetPolicyFor, webhookUserAgent } from '../../adapters/runtime/webhook-runtime';

export const webhookDeps = (): WebhookDeps => {
  const table = tableFromEnvironment();
  return {
    webhooks: dynamoWebhookRepository(table),
    deliveries: dynamoDeliveryRepository(table),
    queue: deliveryQueueFromEnvironment(table),
    clock: systemClock,
    policyFor: targetPolicyFor,
    assessTarget: (url, policy) => assessTarget(url, policy),
    send: postWebhook,
    userAgent: webhookUserAgent,
  };
};
