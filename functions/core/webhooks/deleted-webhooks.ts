import { mapWithConcurrency } from '../concurrency';
import type { Tenant } from '../tenancy';
import type { DeletedWebhookDeliveries } from './delivery';

/** A webhook that was deleted, as the table's stream tells it. */
export interface DeletedWebhook {
  tenant: Tenant;
  webhookId: string;
}

/** What removing one deleted webhook's deliveries came to. */
export type DeletedWebhookResult = { ok: true; removed: number | 'webhook_exists' } | { ok: false; error: unknown };

/** Webhooks whose deliveries are removed at once. */
export const removalConcurrency = 4;

/**
 * Deletes what deleted webhooks leave behind: their deliveries and their count. One result per
 * webhook, in order; a failure leaves that webhook's remaining deliveries for the next run (each
 * removal is idempotent and resumes where the last one stopped).
 */
export const removeDeletedWebhookDeliveries = (
  webhooks: readonly DeletedWebhook[],
  deliveries: DeletedWebhookDeliveries,
): Promise<DeletedWebhookResult[]> =>
  mapWithConcurrency(webhooks, removalConcurrency, async ({ tenant, webhookId }): Promise<DeletedWebhookResult> => {
    try {
      return { ok: true, removed: await deliveries.removeAll(tenant, webhookId) };
    } catch (error) {
      return { ok: false, error };
    }
  });
