import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import type { DeliveryMessage } from '../../core/webhooks/delivery';
import { type BatchRefs, type EventRef, readsPerBatch } from '../../core/webhooks/batch-reads';
import type { WebhookRef } from '../../core/webhooks/webhook';
import { dispatchDelivery, type DispatchDeps, type MessageReceipt } from '../../core/webhooks/dispatch';
import { settleDeadLetter } from '../../core/webhooks/dead-letters';
import { dynamoAccountRepository } from '../../adapters/dynamodb/account-repository';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeletedWebhookDeliveries } from '../../adapters/dynamodb/deleted-webhook-deliveries';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoReadTogether } from '../../adapters/dynamodb/dispatch-reads';
import { dynamoEventReader } from '../../adapters/dynamodb/event-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { postWebhook } from '../../adapters/http/webhook-http-client';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { mailerFromEnvironment } from '../../adapters/runtime/mailer';
import { delayScaleFromEnvironment, targetPolicyFor, webhookUserAgent } from '../../adapters/runtime/webhook-runtime';
import { logger } from '../../observability/logger';
import { recordWebhookAttempt } from '../../observability/metrics';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());
const readTogether = dynamoReadTogether(table);
const deps: DispatchDeps = {
  webhooks: dynamoWebhookRepository(table),
  events: dynamoEventReader(table, { consistent: true }),
  deliveries: dynamoDeliveryRepository(table),
  deletedWebhookDeliveries: dynamoDeletedWebhookDeliveries(table),
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

/** A record's message, or why its body does not parse (that message alone then fails). */
type Parsed = DeliveryMessage | Error;

const parse = (record: SQSRecord): Parsed => {
  try {
    return JSON.parse(record.body) as DeliveryMessage;
  } catch (error) {
    return error as Error;
  }
};

/**
 * The delivery queue's dead-letter queue, which this function reads too (its second event source):
 * its messages are settled (`settleDeadLetter`), never attempted as they are.
 */
const isDeadLetter = (record: SQSRecord): boolean =>
  process.env.DELIVERY_DEAD_LETTER_QUEUE_ARN !== undefined && record.eventSourceARN === process.env.DELIVERY_DEAD_LETTER_QUEUE_ARN;

/** A dead letter: its delivery ended `failed` (attempt never made) or its claimed attempt settled. */
const settleRecord = async (record: SQSRecord, message: Parsed, batchDeps: DispatchDeps): Promise<void> => {
  // A body that does not parse names no delivery: nothing could ever settle it.
  if (message instanceof Error) {
    logger.error('dead letter dropped: its body is not a delivery message', { message_id: record.messageId, error: message });
    return;
  }
  const outcome = await settleDeadLetter(message, batchDeps);
  logger.error('dead letter settled', {
    message_id: record.messageId,
    outcome,
    delivery_id: message.delivery_id,
    webhook_id: message.webhook_id,
    sequence: message.sequence,
    attempt: message.attempt,
  });
};

/** How many times SQS handed the record over: a message received again may be one whose retry failed to be queued. */
export const receiptOf = (record: Pick<SQSRecord, 'attributes'>): MessageReceipt => {
  const receiveCount = Number(record.attributes?.ApproximateReceiveCount);
  return { receiveCount: Number.isInteger(receiveCount) && receiveCount > 0 ? receiveCount : 1 };
};

const dispatchRecord = async (record: SQSRecord, message: Parsed, batchDeps: DispatchDeps): Promise<void> => {
  try {
    if (isDeadLetter(record)) return await settleRecord(record, message, batchDeps);
    if (message instanceof Error) throw message;
    await dispatchDelivery(message, batchDeps, receiptOf(record));
  } catch (error) {
    logger.error('dispatch failed', { message_id: record.messageId, dead_letter: isDeadLetter(record), error: error as Error });
    throw error;
  }
};

const processor = new BatchProcessor(EventType.SQS);

/** The webhooks the batch's messages name, and the events of those that do not carry their body. */
const refsOf = (messages: readonly Parsed[]): BatchRefs => {
  const webhooks: WebhookRef[] = [];
  const events: EventRef[] = [];
  for (const message of messages) {
    if (message instanceof Error || !message.account_id || !message.mode) continue;
    const tenant = { accountId: message.account_id, mode: message.mode };
    if (message.webhook_id) webhooks.push({ tenant, id: message.webhook_id });
    if (message.event_id && message.payload === undefined) events.push({ tenant, id: message.event_id });
  }
  return { webhooks, events };
};

/**
 * Makes the delivery attempts the queue hands over (settles those its dead-letter queue hands over), in parallel, the batch's webhooks (and any
 * events to read) read together in one call as the batch starts; a failed message alone comes back.
 * Each body is parsed once, for both.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const messages = new Map(event.Records.map((record) => [record.messageId, parse(record)]));
  const batchDeps: DispatchDeps = { ...deps, ...readsPerBatch(deps, readTogether, refsOf([...messages.values()])) };
  return processPartialResponse(
    event,
    (record: SQSRecord) => dispatchRecord(record, messages.get(record.messageId) ?? parse(record), batchDeps),
    processor,
    {
      processInParallel: true,
      throwOnFullBatchFailure: false,
    },
  );
};
