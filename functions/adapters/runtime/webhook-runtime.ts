import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { systemClock, type Clock } from '../../core/clock';
import type { Tenant } from '../../core/tenancy';
import type { DeliveryQueue, Mailer } from '../../core/webhooks/delivery';
import type { TargetPolicy } from '../../core/webhooks/target-address';
import type { TableRef } from '../dynamodb/client';
import { outboxMailer } from '../email/outbox-mailer';
import { sesMailer } from '../email/ses-mailer';
import { sqsDeliveryQueue } from '../queue/sqs-delivery-queue';
import { tableDeliveryQueue } from '../queue/table-delivery-queue';

/**
 * The adapters of the webhook machinery, chosen by the environment: SQS and SES in AWS, the
 * table-backed queue and the outbox folder in the local runtime. The use cases are the same.
 */
export const webhookUserAgent = 'ProjectAutomationService-Webhooks/1.0';

/**
 * Resolved on first use, so a function that never queues anything needs no queue. Only the local
 * runtime (LOCAL_DELIVERY_QUEUE=table) uses the table; anywhere else a missing queue is an error,
 * never a silent fallback.
 */
export const deliveryQueueFromEnvironment = (table: TableRef, clock: Clock = systemClock): DeliveryQueue => {
  let queue: DeliveryQueue | undefined;
  const resolve = (): DeliveryQueue => {
    const queueUrl = process.env.DELIVERY_QUEUE_URL;
    if (queueUrl) return sqsDeliveryQueue(new SQSClient({}), queueUrl, clock);
    if (process.env.LOCAL_DELIVERY_QUEUE === 'table') return tableDeliveryQueue(table, clock).queue;
    throw new Error('DELIVERY_QUEUE_URL is not set: this function has no delivery queue');
  };
  return {
    send: (message) => (queue ??= resolve()).send(message),
  };
};

export const mailerFromEnvironment = (clock: Clock = systemClock): Mailer => {
  const outbox = process.env.LOCAL_OUTBOX_DIR;
  if (outbox) return outboxMailer(outbox, clock);
  const from = process.env.NOTIFICATION_SENDER;
  if (!from) throw new Error('NOTIFICATION_SENDER is not set');
  return sesMailer(new SESv2Client({}), from);
};

/**
 * Live webhooks need https and a public address. Test-mode webhooks may use http, and, in the
 * local runtime only, loopback and private addresses; link-local and metadata stay refused.
 */
export const targetPolicyFor = (mode: Tenant['mode']): TargetPolicy =>
  mode === 'live'
    ? { requireHttps: true, allowPrivate: false }
    : { requireHttps: false, allowPrivate: process.env.LOCAL_ALLOW_PRIVATE_TEST_TARGETS === 'true' };

/** Only the local runtime sets LOCAL_TIME_SCALE. */
export const delayScaleFromEnvironment = (): number => {
  const scale = Number(process.env.LOCAL_TIME_SCALE);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
};
