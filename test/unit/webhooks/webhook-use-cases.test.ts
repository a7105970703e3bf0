import { isoTime } from '../../../functions/core/clock';
import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryMessage } from '../../../functions/core/webhooks/delivery';
import { redeliver, type WebhookDeps } from '../../../functions/core/webhooks/webhook-use-cases';
import { statusOf } from '../../../functions/http/error-status';
import { controlledClock } from '../fakes/clock';
import { deliveryAt, inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };

const setUp = async (webhookChanges: { status?: 'enabled' | 'failed'; active?: boolean }) => {
  const clock = controlledClock();
  const webhooks = inMemoryWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const queued: DeliveryMessage[] = [];
  const webhook = { ...webhookAt(clock.now()), id: newId('webhook', clock.now()), ...webhookChanges };
  const delivery = {
    ...deliveryAt(clock.now()),
    id: newId('delivery', clock.now()),
    webhook_id: webhook.id,
    status: 'failed' as const,
    attempt_count: 6,
    next_attempt_at: null,
    updated_at: isoTime(clock.now()),
  };
  await webhooks.create(tenant, webhook);
  await deliveries.create(tenant, delivery);
  const deps: WebhookDeps = {
    webhooks,
    deliveries,
    queue: { send: async (message) => void queued.push(message) },
    clock,
    policyFor: () => ({ requireHttps: true, allowPrivate: false }),
    assessTarget: async () => ({ ok: true }),
    send: async () => {
      throw new Error('no attempt is made here');
    },
    userAgent: 'test-agent',
  };
  return { deps, queued, webhook, delivery, deliveries };
};

describe('redeliver', () => {
  it.each([
    ['failed', { status: 'failed' as const }],
    ['inactive', { active: false }],
  ])('answers 409 saying to re-enable a %s webhook first, and queues nothing', async (_, changes) => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp(changes);
    const error = await redeliver(tenant, webhook.id, delivery.id, deps).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('Re-enable the webhook first') });
    expect(statusOf(error as Parameters<typeof statusOf>[0])).toBe(409);
    expect(queued).toEqual([]);
    expect((await deliveries.get(tenant, webhook.id, delivery.id))?.status).toBe('failed');
  });

  it('queues a new sequence for an enabled, active webhook', async () => {
    const { deps, queued, webhook, delivery } = await setUp({});
    expect(await redeliver(tenant, webhook.id, delivery.id, deps)).toMatchObject({ status: 'pending', sequence: 2 });
    expect(queued).toHaveLength(1);
  });
});
