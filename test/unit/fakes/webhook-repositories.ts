import { isoTime } from '../../../functions/core/clock';
import { lowestIdAt } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { ServiceEvent } from '../../../functions/core/events/event';
import type { DispatchReads, ReadTogether } from '../../../functions/core/webhooks/batch-reads';
import {
  type DeletedWebhookDeliveries,
  type Delivery,
  type DeliveryRepository,
  keptAttempts,
  stranded,
} from '../../../functions/core/webhooks/delivery';
import { viewOfWebhook, type Webhook, type WebhookRepository } from '../../../functions/core/webhooks/webhook';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { entityTagOf } from '../../../functions/core/preconditions';
import { byId, createdOrderPage } from './created-order';

const sameView = (a: Webhook, b: Webhook): boolean => entityTagOf(viewOfWebhook(a)) === entityTagOf(viewOfWebhook(b));

const keyOf = (t: Tenant, webhookId: string, id = '') => `${t.accountId}/${t.mode}/${webhookId}/${id}`;

/**
 * In-memory WebhookRepository with the DynamoDB adapter's rules (held to them by
 * test/contract/webhook-repository.test.ts): webhooks per account and mode, a second create of an
 * id fails, `all` and `list` go by id (creation) order, `update` leaves undefined fields alone, a write given `expected` is refused as `changed` once the
 * webhook shows something else, and
 * `failedCount` is the number of failed webhooks (the adapter keeps it in a counter item).
 */
export const inMemoryWebhooks = (recorded: PendingEvent[] = []): WebhookRepository => {
  const webhooks = new Map<string, Webhook>();
  const ofTenant = (t: Tenant): Webhook[] =>
    [...webhooks.entries()].filter(([key]) => key.startsWith(`${t.accountId}/${t.mode}/`)).map(([, w]) => w);
  return {
    async create(t, webhook) {
      if (webhooks.has(keyOf(t, webhook.id))) throw new Error(`webhook ${webhook.id} exists already`);
      webhooks.set(keyOf(t, webhook.id), structuredClone(webhook));
    },
    async get(t, id) {
      const webhook = webhooks.get(keyOf(t, id));
      return webhook && structuredClone(webhook);
    },
    async all(t) {
      return ofTenant(t)
        .sort(byId)
        .map((w) => structuredClone(w));
    },
    async list(t, query, { status }) {
      return createdOrderPage(
        ofTenant(t).filter((w) => status === undefined || w.status === status),
        query,
        (w) => structuredClone(w),
      );
    },
    async update(t, id, changes, updatedAt, expected, moved) {
      const webhook = webhooks.get(keyOf(t, id));
      if (!webhook) return undefined;
      if (expected && !sameView(webhook, expected)) return 'changed';
      if (moved && changes.status !== undefined && changes.status !== webhook.status) recorded.push(structuredClone(moved));
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      Object.assign(webhook, defined, { updated_at: updatedAt });
      return structuredClone(webhook);
    },
    async rotateSecret(t, id, from, changes, updatedAt) {
      const webhook = webhooks.get(keyOf(t, id));
      if (!webhook) return 'not_found';
      if (webhook.secret !== from) return 'changed';
      Object.assign(webhook, changes, { updated_at: updatedAt });
      return structuredClone(webhook);
    },
    async delete(t, id, expected) {
      const webhook = webhooks.get(keyOf(t, id));
      if (webhook && expected && !sameView(webhook, expected)) return 'changed';
      return webhooks.delete(keyOf(t, id));
    },
    async failedCount(t) {
      return ofTenant(t).filter((w) => w.status === 'failed').length;
    },
  };
};

/**
 * In-memory DeliveryRepository with the DynamoDB adapter's conditions (held to them by
 * test/contract/delivery-repository.test.ts): claims only the next attempt of the current sequence;
 * records an attempt only in its own sequence; `failWithWebhook` (one transaction there) and
 * `setStatus` refuse, changing nothing, what the adapter's conditions refuse.
 * A move of a webhook into `failed` records its event among those `webhooks` records.
 */
export const inMemoryDeliveries = (webhooks: WebhookRepository): DeliveryRepository & DeletedWebhookDeliveries => {
  const deliveries = new Map<string, Delivery>();
  const stored = (t: Tenant, webhookId: string, id: string): Delivery | undefined => deliveries.get(keyOf(t, webhookId, id));
  const ofWebhook = (t: Tenant, webhookId: string): Delivery[] =>
    [...deliveries.entries()].filter(([key]) => key.startsWith(keyOf(t, webhookId))).map(([, d]) => d);
  const create = (t: Tenant, delivery: Delivery): boolean => {
    if (deliveries.has(keyOf(t, delivery.webhook_id, delivery.id))) return false;
    deliveries.set(keyOf(t, delivery.webhook_id, delivery.id), structuredClone(delivery));
    return true;
  };
  const claim = (t: Tenant, webhookId: string, id: string, sequence: number, attempt: number, at: string): Delivery | undefined => {
    const delivery = stored(t, webhookId, id);
    if (!delivery || delivery.status !== 'pending' || delivery.sequence !== sequence || delivery.attempt_count !== attempt - 1)
      return undefined;
    Object.assign(delivery, { attempt_count: attempt, attempt_claimed_at: at, updated_at: at });
    return structuredClone(delivery);
  };
  return {
    async create(t, delivery) {
      return create(t, delivery);
    },
    async createMany(t, batch, onWritten) {
      const created = batch.map((delivery) => create(t, delivery));
      await onWritten?.(created.flatMap((ok, i) => (ok ? [i] : [])));
      return created;
    },
    async get(t, webhookId, id) {
      const delivery = stored(t, webhookId, id);
      return delivery && structuredClone(delivery);
    },
    async list(t, webhookId, query, filters) {
      return createdOrderPage(
        ofWebhook(t, webhookId)
          .filter((d) => filters.status === undefined || d.status === filters.status)
          .filter((d) => filters.event_type === undefined || d.event_type === filters.event_type),
        query,
        (d) => structuredClone(d),
      );
    },
    async findSince(t, webhookId, statuses, sinceMs, atMost, strandedBefore) {
      const from = lowestIdAt('delivery', Math.max(sinceMs, 0));
      const found = (d: Delivery): boolean => statuses.includes(d.status) || (strandedBefore !== undefined && stranded(d, strandedBefore));
      return ofWebhook(t, webhookId)
        .filter((d) => d.id >= from && found(d) && !d.test)
        .sort(byId)
        .slice(0, atMost)
        .map((d) => structuredClone(d));
    },
    async claimAttempt(t, webhookId, id, sequence, attempt, at) {
      return claim(t, webhookId, id, sequence, attempt, at) !== undefined;
    },
    async claim(t, webhookId, id, sequence, attempt, at) {
      return claim(t, webhookId, id, sequence, attempt, at);
    },
    async recordAttempt(t, webhookId, id, attempt, outcome, at) {
      const delivery = stored(t, webhookId, id);
      if (!delivery || delivery.sequence !== attempt.sequence) return;
      delivery.attempts.push(attempt);
      Object.assign(delivery, outcome, { updated_at: at });
    },
    async restart(t, webhookId, from, at, strandedBefore) {
      const delivery = stored(t, webhookId, from.id);
      if (!delivery) return 'not_found';
      if (delivery.sequence !== from.sequence) return 'changed';
      if (from.status === 'pending') {
        const firstDueBeforeCutoff = strandedBefore !== undefined && (delivery.next_attempt_at ?? '') < strandedBefore;
        if (
          delivery.status !== 'pending' ||
          (delivery.attempt_count === 0 && !firstDueBeforeCutoff) ||
          delivery.attempt_count !== from.attempt_count ||
          delivery.attempts.length !== from.attempts.length
        )
          return 'changed';
      } else if (delivery.status === 'pending') return 'changed';
      Object.assign(delivery, {
        status: 'pending',
        sequence: delivery.sequence + 1,
        attempt_count: 0,
        attempt_claimed_at: null,
        next_attempt_at: at,
        updated_at: at,
        attempts: delivery.attempts.slice(-keptAttempts),
      });
      return structuredClone(delivery);
    },
    async failWithWebhook(t, webhookId, id, attempt, at, failed) {
      const delivery = stored(t, webhookId, id);
      // The adapter's transaction is cancelled, and changes nothing, unless both conditions hold.
      if (!delivery || delivery.sequence !== attempt.sequence)
        throw new Error(`transaction cancelled: delivery ${id} is not in sequence ${attempt.sequence}`);
      for (;;) {
        const webhook = await webhooks.get(t, webhookId);
        if (!webhook) throw new Error(`transaction cancelled: webhook ${webhookId} does not exist`);
        const moves = webhook.status !== 'failed';
        // The move, only over the webhook as read (else read again), with its event of the webhook
        // as moved; a webhook failed already is left as it is.
        if (moves) {
          const moved = await webhooks.update(
            t,
            webhookId,
            { status: 'failed', failed_at: at },
            at,
            webhook,
            failed({ ...webhook, status: 'failed', failed_at: at, updated_at: at }),
          );
          if (moved === 'changed') continue;
          if (!moved) throw new Error(`transaction cancelled: webhook ${webhookId} does not exist`);
        }
        delivery.attempts.push(attempt);
        Object.assign(delivery, { status: 'failed', next_attempt_at: null, updated_at: at });
        return moves;
      }
    },
    async abandon(t, webhookId, id, attempt, at) {
      const delivery = stored(t, webhookId, id);
      if (!delivery || delivery.status !== 'pending' || delivery.sequence !== attempt.sequence) return false;
      if (delivery.attempt_count !== attempt.number - 1) return false;
      delivery.attempts.push(attempt);
      Object.assign(delivery, {
        attempt_count: attempt.number,
        attempt_claimed_at: at,
        status: 'failed',
        next_attempt_at: null,
        updated_at: at,
      });
      return true;
    },
    async setStatus(t, webhookId, id, status, at) {
      const delivery = stored(t, webhookId, id);
      if (!delivery) throw new Error(`condition failed: delivery ${id} does not exist`);
      Object.assign(delivery, { status, next_attempt_at: null, updated_at: at });
    },
    async removeAll(t, webhookId) {
      if (await webhooks.get(t, webhookId)) return 'webhook_exists';
      const removed = [...deliveries.keys()].filter((key) => key.startsWith(keyOf(t, webhookId)));
      for (const key of removed) deliveries.delete(key);
      return removed.length;
    },
  };
};

export const webhookAt = (nowMs: number): Webhook => ({
  id: 'wh_1',
  url: 'https://hooks.example.com/in',
  events: ['*'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: isoTime(nowMs),
  updated_at: isoTime(nowMs),
  failed_at: null,
  secret: 'whsec_test_secret',
  previous_secret: null,
  previous_secret_expires_at: null,
});

export const deliveryAt = (nowMs: number): Delivery => ({
  id: 'dlv_1',
  webhook_id: 'wh_1',
  event_id: 'evt_1',
  event_type: 'workflow.created',
  status: 'pending',
  test: false,
  sequence: 1,
  attempt_count: 0,
  attempt_claimed_at: null,
  attempts: [],
  next_attempt_at: isoTime(nowMs),
  created_at: isoTime(nowMs),
  updated_at: isoTime(nowMs),
});

/** The event of `deliveryAt`'s delivery. */
export const eventOfDeliveryAt = (nowMs: number): ServiceEvent => ({
  id: 'evt_1',
  type: 'workflow.created',
  created_at: isoTime(nowMs),
  data: { workflow_id: 'wf_1', project_id: 'prj_1' },
});

/** Recorded events by tenant and id, as the table keeps them: each written once, never changed. */
export const inMemoryEvents = () => {
  const events = new Map<string, ServiceEvent>();
  return {
    async record(t: Tenant, event: ServiceEvent) {
      if (events.has(keyOf(t, event.id))) throw new Error(`event ${event.id} exists already`);
      events.set(keyOf(t, event.id), structuredClone(event));
    },
    async get(t: Tenant, id: string) {
      const event = events.get(keyOf(t, id));
      return event && structuredClone(event);
    },
  };
};

/** `ReadTogether` over in-memory repositories: one read of each, in the order asked. */
export const readTogetherOf =
  (reads: DispatchReads): ReadTogether =>
  async (refs) => ({
    webhooks: await Promise.all(refs.webhooks.map(({ tenant: t, id }) => reads.webhooks.get(t, id))),
    events: await Promise.all(refs.events.map(({ tenant: t, id }) => reads.events.get(t, id))),
  });
