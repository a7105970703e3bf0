import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type DeletedWebhook, removeDeletedWebhookDeliveries } from '../../core/webhooks/deleted-webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeletedWebhookDeliveries } from '../../adapters/dynamodb/deleted-webhook-deliveries';
import { entityTypes } from '../../adapters/dynamodb/keys';
import { tenantOfKey } from '../../adapters/dynamodb/tenant-of-key';
import { logger } from '../../observability/logger';
import { tracedTable } from '../../observability/tracer';
import type { StreamRecordLike } from './stream-consumers';

const deliveries = dynamoDeletedWebhookDeliveries(tracedTable(tableFromEnvironment()));

/** The records this function is given (its mapping's filter): REMOVEs of webhooks. */
export const deletedWebhookRecords = (record: StreamRecordLike): boolean =>
  record.eventName === 'REMOVE' && record.dynamodb?.OldImage?.entity?.S === entityTypes.webhook;

/** A deleted webhook of the batch, with the record that told it (its sequence number is what a failure reports). */
interface RemovalRecord extends DeletedWebhook {
  sequenceNumber: string;
}

/** The webhooks the batch's records deleted, in stream order: any other record is none of this function's business. */
const deletedWebhooksOf = (records: readonly DynamoDBRecord[]): RemovalRecord[] =>
  records.flatMap((record) => {
    const image = record.dynamodb?.OldImage;
    if (record.eventName !== 'REMOVE' || !image) return [];
    const item = unmarshall(image as Record<string, AttributeValue>);
    const tenant = typeof item.pk === 'string' ? tenantOfKey(item.pk) : undefined;
    if (item.entity !== entityTypes.webhook || !tenant || typeof item.id !== 'string') return [];
    return [{ tenant, webhookId: item.id, sequenceNumber: record.dynamodb?.SequenceNumber ?? '' }];
  });

/**
 * Deleting a webhook leaves its deliveries: this function, started by the webhook's removal in
 * the table's stream, deletes them and their count. A failure reports its first webhook; the
 * stream is retried from there (a removal resumes where the last one stopped).
 */
export const handler = async (batch: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const webhooks = deletedWebhooksOf(batch.Records);
  const results = await removeDeletedWebhookDeliveries(webhooks, deliveries);
  let firstFailure: string | undefined;
  results.forEach((result, i) => {
    const { webhookId, sequenceNumber } = webhooks[i] as RemovalRecord;
    if (!result.ok) {
      logger.error('deliveries of a deleted webhook not removed', { webhook_id: webhookId, error: result.error as Error });
      firstFailure ??= sequenceNumber;
    } else if (result.removed === 'webhook_exists') {
      // Ids are never reused: a webhook of this id exists again only if the record was not a deletion.
      logger.warn('a webhook removed from the stream exists: its deliveries stay', { webhook_id: webhookId });
    } else {
      logger.info('deliveries of a deleted webhook removed', { webhook_id: webhookId, deliveries: result.removed });
    }
  });
  return { batchItemFailures: firstFailure ? [{ itemIdentifier: firstFailure }] : [] };
};
