import { type Clock, isoTime } from '../clock';
import type { ServiceEvent } from '../events/event';
import { derivedId } from '../ids';
import type { Tenant } from '../tenancy';
import type { Delivery, DeliveryQueue, DeliveryRepository } from './delivery';
import { isSubscribed, type Webhook, type WebhookRepository } from './webhook';

export interface FanOutDeps {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  queue: DeliveryQueue;
  clock: Clock;
}

/** The body every attempt of every delivery of this event sends. */
export const eventPayload = (event: ServiceEvent): string =>
  JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });

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
  payload: eventPayload(event),
});

export const firstAttemptMessage = (tenant: Tenant, delivery: Delivery, nowMs: number) => ({
  account_id: tenant.accountId,
  mode: tenant.mode,
  webhook_id: delivery.webhook_id,
  delivery_id: delivery.id,
  sequence: delivery.sequence,
  attempt: delivery.attempt_count + 1,
  not_before: nowMs,
});

/**
 * One delivery per active webhook of the tenant subscribed to the event's type: queued for its
 * first attempt at once, or recorded as `skipped` while the webhook is failed. Safe to run twice.
 */
export const fanOutEvent = async (tenant: Tenant, event: ServiceEvent, deps: FanOutDeps): Promise<number> => {
  const nowMs = deps.clock.now();
  // A webhook receives the events created after it (a stream read again, e.g. by a new stream
  // mapping after an upgrade, never sends a newer webhook older events).
  const subscribed = (await deps.webhooks.all(tenant)).filter(
    (webhook) => webhook.active && isSubscribed(webhook, event.type) && webhook.created_at <= event.created_at,
  );
  await Promise.all(
    subscribed.map(async (webhook) => {
      const delivery = newDelivery(webhook, event, webhook.status === 'failed' ? 'skipped' : 'pending', nowMs);
      const created = await deps.deliveries.create(tenant, delivery);
      if (delivery.status !== 'pending') return;
      // A second run finds the delivery already there; queue it again only if it never started.
      const current = created ? delivery : await deps.deliveries.get(tenant, webhook.id, delivery.id);
      if (current && current.status === 'pending' && current.attempt_count === 0) {
        await deps.queue.send(firstAttemptMessage(tenant, current, nowMs));
      }
    }),
  );
  return subscribed.length;
};
