import type { Tenant } from '../tenancy';
import type { Webhook, WebhookRef, WebhookRepository } from './webhook';

const keyOf = (tenant: Tenant, id: string): string => `${tenant.mode}/${tenant.accountId}/${id}`;

/**
 * The repository for one batch of delivery messages: the webhooks of the batch's messages (`refs`)
 * are read together in one call, and any other webhook once for the whole batch (its messages run
 * side by side, so every one of them would read it at the same moment anyway). A read that fails is
 * not kept: the next message reads again, alone.
 */
export const webhookReadsPerBatch = (webhooks: WebhookRepository, refs: readonly WebhookRef[] = []): WebhookRepository => {
  const reads = new Map<string, Promise<Webhook | undefined>>();
  const forget = (key: string) => () => reads.delete(key);
  const distinct = [...new Map(refs.map((ref) => [keyOf(ref.tenant, ref.id), ref])).entries()];
  if (distinct.length > 0) {
    const together = webhooks.getMany(distinct.map(([, ref]) => ref));
    distinct.forEach(([key], i) => {
      const read = together.then((found) => found[i]);
      reads.set(key, read);
      read.catch(forget(key));
    });
  }
  return {
    ...webhooks,
    get(tenant: Tenant, id: string) {
      const key = keyOf(tenant, id);
      let read = reads.get(key);
      if (!read) {
        read = webhooks.get(tenant, id);
        reads.set(key, read);
        read.catch(forget(key));
      }
      return read;
    },
  };
};
