import type { Tenant } from '../../../core/tenancy';
import type { TableRef } from '../client';
import { dynamoDeletedWebhookDeliveries } from '../deleted-webhook-deliveries';
import * as keys from '../table-keys';
import { tenantOfKey } from '../tenant-of-key';
import { partitionsWhere } from './scan-partitions';

export interface DeletedWebhookDeliveriesReport {
  /** Webhooks with deliveries (or a count of them) in the table. */
  webhooks: number;
  /** Of them, those deleted: their deliveries and count are removed now. */
  deleted: number;
  /** The deliveries removed. */
  removed: number;
}

/** `ACCOUNT#<id>#MODE#<mode>#WEBHOOK#<id>#DELIVERIES`: the tenant and webhook of a delivery partition. */
const webhookOfPartition = (partition: string): { tenant: Tenant; webhookId: string } | undefined => {
  const tenant = tenantOfKey(partition);
  const webhookId = partition.split('#')[5];
  return tenant && webhookId && keys.deliveries(tenant, webhookId) === partition ? { tenant, webhookId } : undefined;
};

/**
 * One-off and idempotent: removes the deliveries, and their count, of webhooks deleted before a
 * deletion took them along. Each removal checks in every write that its webhook is absent, so a
 * webhook that exists (or is created meanwhile) keeps everything, and running it beside deliveries
 * is safe.
 */
export const removeDeliveriesOfDeletedWebhooks = async (table: TableRef): Promise<DeletedWebhookDeliveriesReport> => {
  const partitions = await partitionsWhere(table, {
    FilterExpression: 'begins_with(sk, :delivery) OR sk = :count',
    ExpressionAttributeValues: { ':delivery': keys.deliverySortKeyPrefix, ':count': keys.counter('').sk },
  });

  const removal = dynamoDeletedWebhookDeliveries(table);
  const report: DeletedWebhookDeliveriesReport = { webhooks: 0, deleted: 0, removed: 0 };
  for (const partition of partitions) {
    const webhook = webhookOfPartition(partition);
    if (!webhook) continue;
    report.webhooks += 1;
    const removed = await removal.removeAll(webhook.tenant, webhook.webhookId);
    if (removed === 'webhook_exists') continue;
    report.deleted += 1;
    report.removed += removed;
  }
  return report;
};
