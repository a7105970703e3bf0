import type { Tenant } from '../tenancy';
import type { Webhook, WebhookRepository } from './webhook';

/**
 * The repository for one batch of delivery messages: each webhook is read once for the whole
 * batch (its messages run side by side, so every one of them would read it at the same moment
 * anyway). A read that fails is not kept: the next message reads again.
 */
export const webhookReadsPerBatch = (webhooks: WebhookRepository): WebhookRepository => {
  const reads = new Map<string, Promise<Webhook | undefined>>();
  return {
    ...webhooks,
    get(tenant: Tenant, id: string) {
      const key = `${tenant.mode}/${tenant.accountId}/${id}`;
      let read = reads.get(key);
      if (!read) {
        read = webhooks.get(tenant, id);
        reads.set(key, read);
        read.catch(() => reads.delete(key));
      }
      return read;
    },
  };
};
