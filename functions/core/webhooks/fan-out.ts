import { type Clock, isoTime } from '../clock';
import type { ServiceEvent } from '../events/event';
import { derivedId } from '../ids';
import { mapWithConcurrency } from '../concurrency';
import type { Tenant } from '../tenancy';
import { carriedPayload, type Delivery, type DeliveryMessage, type DeliveryQueue, type DeliveryRepository, sendAll } from './delivery';
import { eventPayload } from './event-payload';
import { isOwnStatusEvent, isSubscribed, subscriptionAt, type Webhook, type WebhookRepository } from './webhook';
import type { WebhookListCache } from './webhook-list-cache';

export interface FanOutDeps {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  queue: DeliveryQueue;
  clock: Clock;
  /** Reads each account's webhooks once for many events; without it they are read for every call. */
  webhookLists?: WebhookListCache;
}

/** An event and the tenant it belongs to, as the stream hands it over. */
export interface TenantEvent {
  tenant: Tenant;
  event: ServiceEvent;
}

/** What fanning out one event came to: how many webhooks it was for, or why it failed. */
export type FanOutResult = { ok: true; webhooks: number } | { ok: false; error: unknown };

/** Tenants whose events are fanned out at once. */
export const fanOutConcurrency = 4;

export const newDelivery = (webhook: Webhook, event: ServiceEvent, status: Delivery['status'], nowMs: number, test = false): Delivery => ({
  // The same id for the same event and webhook: fan-out running twice creates one delivery.
  id: derivedId('delivery', Date.parse(event.created_at), `${event.id}:${webhook.id}${test ? `:test:${nowMs}` : ''}`),
  webhook_id: webhook.id,
  event_id: event.id,
  event_type: event.type,
  status,
  test,
  sequence: 1,
  attempt_count: 0,
  attempt_claimed_at: null,
  attempts: [],
  next_attempt_at: status === 'pending' ? isoTime(nowMs) : null,
  created_at: isoTime(nowMs),
  updated_at: isoTime(nowMs),
  // A test's example event is not recorded: its body is kept with the delivery. Other deliveries
  // send their event's item, read by the dispatcher.
  ...(test ? { payload: eventPayload(event) } : {}),
});

/** The message of the next sequence's first attempt; `carried`, the event's body when small enough (`carriedPayload`), travels with it. */
export const firstAttemptMessage = (
  tenant: Tenant,
  delivery: Delivery,
  nowMs: number,
  carried: ReturnType<typeof carriedPayload> = {},
): DeliveryMessage => ({
  account_id: tenant.accountId,
  mode: tenant.mode,
  webhook_id: delivery.webhook_id,
  delivery_id: delivery.id,
  event_id: delivery.event_id,
  sequence: delivery.sequence,
  attempt: delivery.attempt_count + 1,
  not_before: nowMs,
  ...carried,
});

const webhooksFor = (tenant: Tenant, recordedAtMs: number, deps: FanOutDeps): Promise<Webhook[]> =>
  deps.webhookLists ? deps.webhookLists.webhooksFor(tenant, recordedAtMs) : deps.webhooks.all(tenant);

/** Of deliveries that existed already, those to queue again: pending and never attempted (a run cut short before sending). */
const neverStarted = async (tenant: Tenant, existing: readonly Delivery[], deps: FanOutDeps): Promise<Delivery[]> => {
  const current = await mapWithConcurrency(existing, 8, (delivery) => deps.deliveries.get(tenant, delivery.webhook_id, delivery.id));
  return current.filter((delivery): delivery is Delivery => delivery?.status === 'pending' && delivery.attempt_count === 0);
};

/** One tenant's events: its webhooks read once, every delivery created in batched writes, then queued. */
const fanOutTenantEvents = async (tenant: Tenant, events: readonly ServiceEvent[], deps: FanOutDeps): Promise<number[]> => {
  const nowMs = deps.clock.now();
  const latestMs = Math.max(...events.map((event) => Date.parse(event.created_at)));
  const webhooks = await webhooksFor(tenant, latestMs, deps);
  const counts: number[] = [];
  const deliveries: Delivery[] = [];
  const seen = new Set<string>();
  // Each event's body built and measured once, carried by the messages of all its deliveries.
  const carried = new Map(events.map((event) => [event.id, carriedPayload(eventPayload(event))]));
  const messageOf = (delivery: Delivery) => firstAttemptMessage(tenant, delivery, nowMs, carried.get(delivery.event_id));
  for (const event of events) {
    // A webhook receives the events created after it (a stream read again, e.g. by a new stream
    // mapping after an upgrade, never sends a newer webhook older events), by what it subscribed
    // to when the event was recorded: a pause or a new subscription after it, however soon, changes
    // nothing of that event's delivery. A webhook's own `webhook.failed` or `webhook.enabled` goes
    // to the others only.
    const subscribed = webhooks.filter((webhook) => {
      const then = subscriptionAt(webhook, event.created_at);
      return then.active && isSubscribed(then, event.type) && webhook.created_at <= event.created_at && !isOwnStatusEvent(webhook, event);
    });
    counts.push(subscribed.length);
    // The same event twice in one batch: its deliveries once.
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    // Failed since, or paused since: recorded as skipped (what `recover` queues again), as a pause
    // closes a delivery already queued.
    for (const webhook of subscribed)
      deliveries.push(newDelivery(webhook, event, webhook.status === 'failed' || !webhook.active ? 'skipped' : 'pending', nowMs));
  }
  // Each pending delivery is queued once written, while the others are still being written: a
  // large batch's first attempts do not wait for its last writes.
  const queued = new Set<number>();
  const queueCreated = async (indexes: readonly number[]): Promise<void> => {
    const ready = indexes.filter((i) => deliveries[i]?.status === 'pending' && !queued.has(i));
    for (const i of ready) queued.add(i);
    await sendAll(
      deps.queue,
      ready.map((i) => messageOf(deliveries[i] as Delivery)),
    );
  };
  const created = await deps.deliveries.createMany(tenant, deliveries, queueCreated);
  await queueCreated(created.flatMap((ok, i) => (ok ? [i] : [])));
  // A second run finds deliveries already there; queue them again only if they never started.
  const existing = deliveries.filter((delivery, i) => delivery.status === 'pending' && !created[i]);
  await sendAll(deps.queue, (await neverStarted(tenant, existing, deps)).map(messageOf));
  return counts;
};

/**
 * One delivery per active webhook of the tenant subscribed to each event's type (a webhook's own
 * `webhook.failed` and `webhook.enabled` to the others only): queued for its first attempt at
 * once, or recorded as `skipped` while the webhook is failed. The events of one
 * tenant share one read of its webhooks and batched writes; tenants go a few at once. Safe to run
 * twice. Per event, in order: its webhook count, or the error that stopped its tenant's events.
 */
export const fanOutEvents = async (items: readonly TenantEvent[], deps: FanOutDeps): Promise<FanOutResult[]> => {
  const byTenant = new Map<string, { tenant: Tenant; indexes: number[] }>();
  items.forEach(({ tenant }, index) => {
    const key = `${tenant.mode}/${tenant.accountId}`;
    const group = byTenant.get(key) ?? { tenant, indexes: [] };
    group.indexes.push(index);
    byTenant.set(key, group);
  });
  const results = new Array<FanOutResult>(items.length);
  await mapWithConcurrency([...byTenant.values()], fanOutConcurrency, async ({ tenant, indexes }) => {
    try {
      const counts = await fanOutTenantEvents(
        tenant,
        indexes.map((i) => (items[i] as TenantEvent).event),
        deps,
      );
      indexes.forEach((i, n) => (results[i] = { ok: true, webhooks: counts[n] ?? 0 }));
    } catch (error) {
      for (const i of indexes) results[i] = { ok: false, error };
    }
  });
  return results;
};

/** `fanOutEvents` for one event: its webhook count. */
export const fanOutEvent = async (tenant: Tenant, event: ServiceEvent, deps: FanOutDeps): Promise<number> => {
  const [result] = await fanOutEvents([{ tenant, event }], deps);
  if (!result?.ok) throw result?.error ?? new Error('fan-out gave no result');
  return result.webhooks;
};
