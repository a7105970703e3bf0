import { webhookReadsPerBatch } from '../../../functions/core/webhooks/batch-webhook-reads';
import type { Tenant } from '../../../functions/core/tenancy';
import type { WebhookRepository } from '../../../functions/core/webhooks/webhook';
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
