import { newEvent } from '../../../functions/core/events/event';
import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryMessage } from '../../../functions/core/webhooks/delivery';
import { fanOutEvents, type FanOutDeps } from '../../../functions/core/webhooks/fan-out';
import {
  maxPastSubscriptions,
  pastSubscriptionKeptMs,
  type Webhook,
  type WebhookRepository,
} from '../../../functions/core/webhooks/webhook';
import { updateWebhook, type WebhookTargetDeps } from '../../../functions/core/webhooks/webhook-use-cases';
import { controlledClock } from '../fakes/clock';
import { inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };

/**
 * The stream hands an event to the fan-out some time after it was recorded (seconds in AWS): a
 * webhook changed in between is judged by what it subscribed to when the event was recorded.
 */
const setUp = async (subscription: Partial<Pick<Webhook, 'active' | 'events'>> = {}) => {
  const clock = controlledClock();
  const webhooks = inMemoryWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const queued: DeliveryMessage[] = [];
  const webhook: Webhook = { ...webhookAt(clock.now()), id: newId('webhook', clock.now()), ...subscription };
  await webhooks.create(tenant, webhook);
  const change = (changes: Parameters<typeof updateWebhook>[2]) => {
    const deps: WebhookTargetDeps = {
      webhooks,
      clock,
      policyFor: () => ({ requireHttps: true, allowPrivate: false }),
      assessTarget: async () => ({ ok: true }),
    };
    return updateWebhook(tenant, webhook.id, changes, deps);
  };
  const fanOutDeps: FanOutDeps = {
    webhooks,
    deliveries,
    clock,
    queue: { send: async (m) => void queued.push(m), sendMany: async (ms) => void queued.push(...ms) },
  };
  const fanOut = (event: ReturnType<typeof newEvent>) => fanOutEvents([{ tenant, event }], fanOutDeps);
  const deliveriesOf = async () =>
    (await deliveries.list(tenant, webhook.id, { page: 1, perPage: 10, sort: 'created_at', order: 'asc' }, {})).items.map((d) => d.status);
  return { clock, webhooks, webhook, change, fanOut, deliveriesOf, queued };
};

describe('the subscription an event is fanned out by', () => {
  it('an event recorded before a pause is recorded skipped (recover queues it), not dropped, however late the fan-out', async () => {
    const { clock, change, fanOut, deliveriesOf, queued } = await setUp();
    clock.advance(1_000);
    const event = newEvent('workflow.cancelled', { id: 'wf_1' }, clock.now());
    clock.advance(5);
    await change({ active: false });
    clock.advance(3_000);
    expect(await fanOut(event)).toEqual([{ ok: true, webhooks: 1 }]);
    expect(await deliveriesOf()).toEqual(['skipped']);
    expect(queued).toEqual([]);
  });

  it('an event recorded while paused gets nothing, though the webhook was resumed before the fan-out', async () => {
    const { clock, change, fanOut, deliveriesOf } = await setUp({ active: false });
    clock.advance(1_000);
    const event = newEvent('workflow.cancelled', { id: 'wf_1' }, clock.now());
    clock.advance(5);
    await change({ active: true });
    clock.advance(3_000);
    expect(await fanOut(event)).toEqual([{ ok: true, webhooks: 0 }]);
    expect(await deliveriesOf()).toEqual([]);
  });

  it('an event of a type subscribed to when it was recorded is delivered after the subscription moved on; one of the new types recorded before is not', async () => {
    const { clock, change, fanOut, deliveriesOf, queued } = await setUp({ events: ['workflow.created'] });
    clock.advance(1_000);
    const created = newEvent('workflow.created', { id: 'wf_1' }, clock.now());
    const cancelledBefore = newEvent('workflow.cancelled', { id: 'wf_0' }, clock.now());
    clock.advance(5);
    await change({ events: ['workflow.cancelled'] });
    clock.advance(5);
    const cancelled = newEvent('workflow.cancelled', { id: 'wf_1' }, clock.now());
    clock.advance(5);
    await change({ events: ['deployment.failed'] });
    clock.advance(3_000);
    expect(await fanOut(created)).toEqual([{ ok: true, webhooks: 1 }]);
    expect(await fanOut(cancelledBefore)).toEqual([{ ok: true, webhooks: 0 }]);
    expect(await fanOut(cancelled)).toEqual([{ ok: true, webhooks: 1 }]);
    expect(await deliveriesOf()).toEqual(['pending', 'pending']);
    expect(queued.map((m) => m.event_id)).toEqual([created.id, cancelled.id]);
  });

  it('keeps what a change ends for 25 hours, and nothing for a change that leaves the subscription as it was', async () => {
    const { clock, change, webhooks, webhook } = await setUp({ events: ['workflow.created', 'workflow.failed'] });
    const stored = async () => ((await webhooks.get(tenant, webhook.id)) as Webhook).past_subscriptions;
    await change({ description: 'renamed', events: ['workflow.failed', 'workflow.created'] });
    expect(await stored()).toBeUndefined();
    clock.advance(1_000);
    const first = await change({ active: false });
    expect(first).not.toHaveProperty('past_subscriptions');
    expect(await stored()).toEqual([
      { until: new Date(clock.now()).toISOString(), active: true, events: ['workflow.failed', 'workflow.created'] },
    ]);
    clock.advance(pastSubscriptionKeptMs + 1);
    await change({ active: true });
    expect(await stored()).toEqual([
      { until: new Date(clock.now()).toISOString(), active: false, events: ['workflow.failed', 'workflow.created'] },
    ]);
  });

  it('keeps at most the last 100 past subscriptions, however often it changes', async () => {
    const { clock, change, webhooks, webhook } = await setUp();
    for (let n = 0; n < 105; n += 1) {
      clock.advance(1_000);
      await change({ active: n % 2 === 1 });
    }
    const kept = (await webhooks.get(tenant, webhook.id))?.past_subscriptions ?? [];
    expect(kept).toHaveLength(maxPastSubscriptions);
    expect(kept.at(-1)?.until).toBe(new Date(clock.now()).toISOString());
  });

  it('a change made without If-Match is read again and stored over what another write changed meanwhile, keeping both', async () => {
    const { clock, change, webhooks, webhook } = await setUp();
    const racing: WebhookRepository = webhooks;
    const update = racing.update.bind(racing);
    let raced = false;
    racing.update = async (t, id, changes, updatedAt, expected) => {
      if (!raced) {
        raced = true;
        // Another request's change lands between this one's read and its write.
        clock.advance(1);
        await update(t, id, { description: 'set meanwhile' }, new Date(clock.now()).toISOString());
      }
      return update(t, id, changes, updatedAt, expected);
    };
    const paused = await change({ active: false });
    expect(paused).toMatchObject({ active: false, description: 'set meanwhile' });
    expect((await webhooks.get(tenant, webhook.id))?.past_subscriptions).toHaveLength(1);
  });
});
