import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import type { Tenant } from '../../core/tenancy';
import { fanOutEvent } from '../../core/webhooks/fan-out';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { eventFrom } from '../../adapters/dynamodb/event-repository';
import { entityTypes } from '../../adapters/dynamodb/keys';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { logger } from '../../observability/logger';
import { recordEventOutcome } from '../../observability/metrics';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());
const deps = {
  webhooks: dynamoWebhookRepository(table),
  deliveries: dynamoDeliveryRepository(table),
  queue: deliveryQueueFromEnvironment(table),
  clock: systemClock,
};

const fanOutRecord = async (record: DynamoDBRecord): Promise<void> => {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.entity !== entityTypes.event) return;
  const tenant: Tenant = { accountId: item.account_id as string, mode: item.mode as Tenant['mode'] };
  try {
    const serviceEvent = eventFrom(item);
    const webhooks = await fanOutEvent(tenant, serviceEvent, deps);
    // Every event passes here once (at least): the outcomes of workflows and deployments are counted from theirs.
    recordEventOutcome(serviceEvent);
    logger.info('event fanned out', { event_id: item.id, event_type: item.type, webhooks });
  } catch (error) {
    logger.error('fan-out failed', { event_id: item.id, error: error as Error });
    throw error;
  }
};

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The outbox's second half: reads new events from the table's stream, in order, and creates their
 * deliveries. Failed records are reported; the stream is retried from the first of them (fan-out
 * of an event is idempotent: its deliveries have ids derived from the event and the webhook).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  processPartialResponse(event, fanOutRecord, processor, { processInParallel: false, throwOnFullBatchFailure: false });
