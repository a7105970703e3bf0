import { newEvent, type ServiceEvent } from '../../../functions/core/events/event';
import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryMessage } from '../../../functions/core/webhooks/delivery';
import { fanOutEvents, type FanOutDeps } from '../../../functions/core/webhooks/fan-out';
import { viewOfWebhook, type Webhook } from '../../../functions/core/webhooks/webhook';
import { recoverDeliveries } from '../../../functions/core/webhooks/webhook-use-cases';
import { controlledClock } from '../fakes/clock';
import { inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'test' };

/**
 * A webhook's own `webhook.failed` and `webhook.enabled` go to the other webhooks subscribed to
 * them, never to it: it is failed when its `webhook.failed` is fanned out, so the notice would be
 * recorded as skipped and replayed to it by `recover` once it is enabled again.
 */
const setUp = async () => {
  const clock = controlledClock();
  const webhooks = inMemoryWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const queued: DeliveryMessage[] = [];
  const queue = {
    send: async (m: DeliveryMessage) => void queued.push(m),
    sendMany: async (ms: DeliveryMessage[]) => void queued.push(...ms),
  };
  const make = async (overrides: Partial<Webhook>): Promise<Webhook> => {
    clock.advance(1);
    const webhook: Webhook = { ...webhookAt(clock.now()), id: newId('webhook', clock.now()), ...overrides };
    await webhooks.create(tenant, webhook);
    return webhook;
  };
  // Subscribed to every type, then failed: its receiver is down.
  const down = await make({ events: ['*'] });
  // Watching the others' moves, and subscribed to every type.
  const watcher = await make({ events: ['webhook.failed', 'webhook.enabled'] });
  const everything = await make({ events: ['*'] });
  const fanOutDeps: FanOutDeps = { webhooks, deliveries, clock, queue };
  const fanOut = async (type: ServiceEvent['type'], data: Record<string, unknown>) => {
    clock.advance(1_000);
    const event = newEvent(type, data, clock.now());
    clock.advance(5);
    return { event, results: await fanOutEvents([{ tenant, event }], fanOutDeps) };
  };
  const deliveriesOf = async (webhook: Webhook) =>
    (await deliveries.list(tenant, webhook.id, { page: 1, perPage: 50, sort: 'created_at', order: 'asc' }, {})).items.map(
      (d) => `${d.event_type} ${d.status}`,
    );
  const move = async (webhook: Webhook, changes: Partial<Webhook>): Promise<Webhook> => {
    clock.advance(1);
    const moved = await webhooks.update(tenant, webhook.id, changes, new Date(clock.now()).toISOString());
    if (!moved || moved === 'changed') throw new Error(`webhook ${webhook.id} did not move`);
    return moved;
  };
  return { clock, deliveries, queue, queued, webhooks, down, watcher, everything, fanOut, deliveriesOf, move };
};

describe("a webhook's own status events", () => {
  it('its webhook.failed goes to the others subscribed to it, not to it: nothing is recorded for it', async () => {
    const { down, watcher, everything, fanOut, deliveriesOf, move } = await setUp();
    const failed = await move(down, { status: 'failed', failed_at: new Date().toISOString() });
    const { results } = await fanOut('webhook.failed', { ...viewOfWebhook(failed) });
    expect(results).toEqual([{ ok: true, webhooks: 2 }]);
    expect(await deliveriesOf(down)).toEqual([]);
    expect(await deliveriesOf(watcher)).toEqual(['webhook.failed pending']);
    expect(await deliveriesOf(everything)).toEqual(['webhook.failed pending']);
  });

  it('its webhook.enabled goes to the others subscribed to it, not to it', async () => {
    const { down, watcher, everything, fanOut, deliveriesOf, move } = await setUp();
    await move(down, { status: 'failed', failed_at: new Date().toISOString() });
    const enabled = await move(down, { status: 'enabled', failed_at: null });
    const { results } = await fanOut('webhook.enabled', { ...viewOfWebhook(enabled) });
    expect(results).toEqual([{ ok: true, webhooks: 2 }]);
    expect(await deliveriesOf(down)).toEqual([]);
    expect(await deliveriesOf(watcher)).toEqual(['webhook.enabled pending']);
    expect(await deliveriesOf(everything)).toEqual(['webhook.enabled pending']);
  });

  it("another webhook's webhook.failed is recorded as skipped for a failed one, and recover replays that and what it missed, never its own", async () => {
    const { clock, deliveries, queue, queued, webhooks, down, everything, fanOut, deliveriesOf, move } = await setUp();
    const since = clock.now();
    const failed = await move(down, { status: 'failed', failed_at: new Date(clock.now()).toISOString() });
    await fanOut('webhook.failed', { ...viewOfWebhook(failed) });
    const missed = await fanOut('deployment.failed', { id: 'dep_1', status: 'failed' });
    const othersFailure = await fanOut('webhook.failed', {
      ...viewOfWebhook(await move(everything, { status: 'failed', failed_at: new Date(clock.now()).toISOString() })),
    });
    expect(await deliveriesOf(down)).toEqual(['deployment.failed skipped', 'webhook.failed skipped']);

    await move(down, { status: 'enabled', failed_at: null });
    queued.length = 0;
    const recovered = await recoverDeliveries(tenant, down.id, since, { webhooks, deliveries, queue, clock });
    expect(recovered).toMatchObject({ requeued: 2, has_more: false });
    expect(queued.map((m) => m.event_id).sort()).toEqual([missed.event.id, othersFailure.event.id].sort());
  });
});
