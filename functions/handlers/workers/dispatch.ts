import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import type { DeliveryMessage } from '../../core/webhooks/delivery';
import { webhookReadsPerBatch } from '../../core/webhooks/batch-webhook-reads';
import { dispatchDelivery, type DispatchDeps } from '../../core/webhooks/dispatch';
import type { WebhookRef } from '../../core/webhooks/webhook';
import { dynamoAccountRepository } from '../../adapters/dynamodb/account-repository';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { postWebhook } from '../../adapters/http/webhook-http-client';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { mailerFromEnvironment } from '../../adapters/runtime/mailer';
import { delayScaleFromEnvironment, targetPolicyFor, webhookUserAgent } from '../../adapters/runtime/webhook-runtime';
import { logger } from '../../observability/logger';
import { recordWebhookAttempt } from '../../observability/metrics';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());
const deps: DispatchDeps = {
  webhooks: dynamoWebhookRepository(table),
  deliveries: dynamoDeliveryRepository(table),
  accounts: dynamoAccountRepository(table),
  queue: deliveryQueueFromEnvironment(table),
  mailer: mailerFromEnvironment(),
  // Each attempt's outcome, and for a first attempt how long after its event it went out.
  async send(request) {
    const result = await postWebhook(request);
    const attempt = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'x-service-attempt')?.[1];
    let sinceEventMs: number | undefined;
    if (attempt === '1') {
      const createdAt = Date.parse((JSON.parse(request.body) as { created_at?: string }).created_at ?? '');
      if (Number.isFinite(createdAt)) sinceEventMs = Date.now() - createdAt;
    }
    recordWebhookAttempt(result.ok ? 'succeeded' : 'failed', sinceEventMs);
    return result;
  },
  clock: systemClock,
  policyFor: targetPolicyFor,
  userAgent: webhookUserAgent,
  delayScale: delayScaleFromEnvironment(),
};

const dispatchRecord = async (record: SQSRecord, batchDeps: DispatchDeps): Promise<void> => {
  try {
    await dispatchDelivery(JSON.parse(record.body) as DeliveryMessage, batchDeps);
  } catch (error) {
    logger.error('dispatch failed', { message_id: record.messageId, error: error as Error });
    throw error;
  }
};

const processor = new BatchProcessor(EventType.SQS);

/** The webhooks the batch's messages name (a body that does not parse fails in its own dispatch). */
const webhooksOf = (records: readonly SQSRecord[]): WebhookRef[] =>
  records.flatMap((record) => {
    try {
      const message = JSON.parse(record.body) as Partial<DeliveryMessage>;
      return message.account_id && message.mode && message.webhook_id
        ? [{ tenant: { accountId: message.account_id, mode: message.mode }, id: message.webhook_id }]
        : [];
    } catch {
      return [];
    }
  });

/**
 * Makes the delivery attempts the queue hands over, in parallel, the batch's webhooks read together
 * in one call as the batch starts; a failed message alone comes back.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchDeps: DispatchDeps = { ...deps, webhooks: webhookReadsPerBatch(deps.webhooks, webhooksOf(event.Records)) };
  return processPartialResponse(event, (record: SQSRecord) => dispatchRecord(record, batchDeps), processor, {
    processInParallel: true,
    throwOnFullBatchFailure: false,
  });
};
