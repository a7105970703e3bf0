import type { TableRef } from '../client';
import { failedWebhookCountKey } from '../failed-webhook-count';
import { entityTypes } from '../keys';
import * as keys from '../table-keys';
import { recountCollection } from './recount';

export interface RecountReport {
  /** Account modes that have webhooks. */
  tenants: number;
  /** Their failed webhooks, now the counters' sum. */
  failed: number;
}

/**
 * One-off and idempotent: sets every account mode's failed-webhook counter (the dashboard's badge)
 * from its webhooks, for webhooks that failed before the counter was kept. Running it again
 * counts the same; running it beside deliveries is safe (each count is written with a check that
 * every webhook still has the status counted).
 */
export const recountFailedWebhooks = async (table: TableRef): Promise<RecountReport> => {
  const { tenants, counted } = await recountCollection(table, {
    entity: entityTypes.webhook,
    partition: keys.webhooks,
    sortKeyPrefix: keys.webhookSortKeyPrefix,
    counted: (webhook) => webhook.status === 'failed',
    counterKey: failedWebhookCountKey,
  });
  return { tenants, failed: counted };
};
