import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import type { Tenant } from '../../core/tenancy';
import { fanOutEvents, type FanOutResult, type TenantEvent } from '../../core/webhooks/fan-out';
import { webhookListCache } from '../../core/webhooks/webhook-list-cache';
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
const webhooks = dynamoWebhookRepository(table);
const deps = {
  webhooks,
  deliveries: dynamoDeliveryRepository(table),
  queue: deliveryQueueFromEnvironment(table),
  clock: systemClock,
  // Kept across invocations of this instance.
  webhookLists: webhookListCache(webhooks, systemClock),
};

const imageOf = (record: DynamoDBRecord): Record<string, unknown> | undefined => {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  return image ? unmarshall(image as Record<string, AttributeValue>) : undefined;
};

/** A new event of the batch, with the record that brought it (its sequence number is what a failure reports). */
interface EventRecord extends TenantEvent {
  sequenceNumber: string;
}

/** The batch's new events, in stream order; a record that cannot be read is a failure at its place. */
const eventsOf = (records: readonly DynamoDBRecord[]): { events: EventRecord[]; unreadable?: string } => {
  const events: EventRecord[] = [];
  for (const record of records) {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    const item = imageOf(record);
    // A webhook written (where the stream brings such records, as the local runtime's does): its account's list is read again.
    if (item?.entity === entityTypes.webhook) deps.webhookLists.invalidate();
    if (record.eventName !== 'INSERT' || item?.entity !== entityTypes.event) continue;
    try {
      const tenant: Tenant = { accountId: item.account_id as string, mode: item.mode as Tenant['mode'] };
      events.push({ tenant, event: eventFrom(item), sequenceNumber });
    } catch (error) {
      logger.error('fan-out could not read an event', { event_id: item.id, error: error as Error });
      return { events, unreadable: sequenceNumber };
    }
  }
  return { events };
};

/**
 * The outbox's second half: reads new events from the table's stream, in order, and creates their
 * deliveries, the batch's events at once (each account's webhooks read once, deliveries written
 * in batches). A failure reports its first event; the stream is retried from there (fan-out of an
 * event is idempotent: its deliveries have ids derived from the event and the webhook).
 */
export const handler = async (batch: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const { events, unreadable } = eventsOf(batch.Records);
  const results: FanOutResult[] = await fanOutEvents(events, deps);
  let firstFailure: string | undefined;
  results.forEach((result, i) => {
    const { event, sequenceNumber } = events[i] as EventRecord;
    if (result.ok) {
      // Every event passes here once (at least): the outcomes of workflows and deployments are counted from theirs.
      recordEventOutcome(event);
      logger.info('event fanned out', { event_id: event.id, event_type: event.type, webhooks: result.webhooks });
    } else {
      logger.error('fan-out failed', { event_id: event.id, error: result.error as Error });
      firstFailure ??= sequenceNumber;
    }
  });
  const failedAt = firstFailure ?? unreadable;
  return { batchItemFailures: failedAt ? [{ itemIdentifier: failedAt }] : [] };
};
