import { webhookReadsPerBatch } from '../../../functions/core/webhooks/batch-webhook-reads';
import type { Tenant } from '../../../functions/core/tenancy';
import type { WebhookRef, WebhookRepository } from '../../../functions/core/webhooks/webhook';
import { inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'test' };
const other: Tenant = { accountId: 'acct_2', mode: 'test' };

/** The repository, counting its reads. */
const counted = (repository: WebhookRepository) => {
  const reads: string[] = [];
  return {
    reads,
    repository: {
      ...repository,
      async get(t: Tenant, id: string) {
        reads.push(`${t.accountId}/${id}`);
        return repository.get(t, id);
      },
      async getMany(refs: readonly WebhookRef[]) {
        reads.push(refs.map((ref) => `${ref.tenant.accountId}/${ref.id}`).join(' + '));
        return repository.getMany(refs);
      },
    } satisfies WebhookRepository,
  };
};

describe('webhookReadsPerBatch', () => {
  it('reads each webhook of a batch once, however many of its messages ask at once', async () => {
    const webhooks = inMemoryWebhooks();
    const webhook = webhookAt(Date.parse('2026-03-01T10:00:00Z'));
    await webhooks.create(tenant, webhook);
    await webhooks.create(other, webhook);
    const { reads, repository } = counted(webhooks);
    const batch = webhookReadsPerBatch(repository);

    const answers = await Promise.all([1, 2, 3].map(() => batch.get(tenant, webhook.id)));
    expect(answers).toEqual([webhook, webhook, webhook]);
    // Another account's webhook of the same id is its own read.
    expect(await batch.get(other, webhook.id)).toEqual(webhook);
    expect(reads).toEqual([`acct_1/${webhook.id}`, `acct_2/${webhook.id}`]);
    // The next batch reads again.
    await webhookReadsPerBatch(repository).get(tenant, webhook.id);
    expect(reads).toHaveLength(3);
  });

  it("reads the webhooks the batch's messages name in one call, each once, and any other alone", async () => {
    const webhooks = inMemoryWebhooks();
    const first = webhookAt(Date.parse('2026-03-01T10:00:00Z'));
    const second = { ...webhookAt(Date.parse('2026-03-01T10:01:00Z')), id: 'wh_2' };
    await webhooks.create(tenant, first);
    await webhooks.create(other, second);
    const { reads, repository } = counted(webhooks);
    const batch = webhookReadsPerBatch(repository, [
      { tenant, id: first.id },
      { tenant: other, id: second.id },
      { tenant, id: first.id },
    ]);

    expect(await Promise.all([batch.get(tenant, first.id), batch.get(other, second.id), batch.get(tenant, first.id)])).toEqual([
      first,
      second,
      first,
    ]);
    // Not named by the batch (or gone): read alone, once.
    expect(await batch.get(tenant, second.id)).toBeUndefined();
    expect(await batch.get(tenant, second.id)).toBeUndefined();
    expect(reads).toEqual([`acct_1/${first.id} + acct_2/${second.id}`, `acct_1/${second.id}`]);
  });

  it('a batch read that fails is not kept: each message then reads its webhook alone', async () => {
    const webhooks = inMemoryWebhooks();
    const webhook = webhookAt(Date.parse('2026-03-01T10:00:00Z'));
    await webhooks.create(tenant, webhook);
    const batch = webhookReadsPerBatch({ ...webhooks, getMany: async () => Promise.reject(new Error('throttled')) }, [
      { tenant, id: webhook.id },
    ]);
    await expect(batch.get(tenant, webhook.id)).rejects.toThrow('throttled');
    expect(await batch.get(tenant, webhook.id)).toEqual(webhook);
  });

  it('a failed read is not kept: the next message of the batch reads again', async () => {
    const webhooks = inMemoryWebhooks();
    const webhook = webhookAt(Date.parse('2026-03-01T10:00:00Z'));
    await webhooks.create(tenant, webhook);
    let failures = 1;
    const flaky: WebhookRepository = {
      ...webhooks,
      async get(t, id) {
        if (failures-- > 0) throw new Error('throttled');
        return webhooks.get(t, id);
      },
    };
    const batch = webhookReadsPerBatch(flaky);
    await expect(batch.get(tenant, webhook.id)).rejects.toThrow('throttled');
    expect(await batch.get(tenant, webhook.id)).toEqual(webhook);
  });
});
