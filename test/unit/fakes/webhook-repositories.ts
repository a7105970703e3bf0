import { isoTime } from '../../../functions/core/clock';
import type { Tenant } from '../../../functions/core/tenancy';
import type { Delivery, DeliveryRepository } from '../../../functions/core/webhooks/delivery';
import type { Webhook, WebhookRepository } from '../../../functions/core/webhooks/webhook';

const keyOf = (t: Tenant, webhookId: string, id = '') => `${t.accountId}/${t.mode}/${webhookId}/${id}`;

export const inMemoryWebhooks = (): WebhookRepository => {
  const webhooks = new Map<string, Webhook>();
  return {
    async create(t, webhook) {
      webhooks.set(keyOf(t, webhook.id), structuredClone(webhook));
    },
    async get(t, id) {
      const webhook = webhooks.get(keyOf(t, id));
      return webhook && structuredClone(webhook);
    },
    async all(t) {
      return [...webhooks.entries()].filter(([key]) => key.startsWith(`${t.accountId}/${t.mode}/`)).map(([, w]) => structuredClone(w));
    },
    async list() {
      throw new Error('not used');
    },
    async update(t, id, changes, updatedAt) {
      const webhook = webhooks.get(keyOf(t, id));
      if (!webhook) return undefined;
      Object.assign(webhook, changes, { updated_at: updatedAt });
      return structuredClone(webhook);
    },
    async delete(t, id) {
      return webhooks.delete(keyOf(t, id));
    },
  };
};

/** The DynamoDB adapter's conditions, in memory: claims only the next attempt of the current sequence. */
export const inMemoryDeliveries = (webhooks: WebhookRepository): DeliveryRepository => {
  const deliveries = new Map<string, Delivery>();
  const stored = (t: Tenant, webhookId: string, id: string): Delivery | undefined => deliveries.get(keyOf(t, webhookId, id));
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
    async createMany(t, batch) {
      return batch.map((delivery) => create(t, delivery));
    },
    async get(t, webhookId, id) {
      const delivery = stored(t, webhookId, id);
      return delivery && structuredClone(delivery);
    },
    async list() {
      throw new Error('not used');
    },
    async findSince() {
      throw new Error('not used');
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
    async restart(t, webhookId, id, at) {
      const delivery = stored(t, webhookId, id);
      if (!delivery) return undefined;
      Object.assign(delivery, {
        status: 'pending',
        sequence: delivery.sequence + 1,
        attempt_count: 0,
        attempt_claimed_at: null,
        next_attempt_at: at,
        updated_at: at,
      });
      return structuredClone(delivery);
    },
    async failWithWebhook(t, webhookId, id, attempt, at) {
      const delivery = stored(t, webhookId, id);
      if (!delivery) return;
      delivery.attempts.push(attempt);
      Object.assign(delivery, { status: 'failed', next_attempt_at: null, updated_at: at });
      await webhooks.update(t, webhookId, { status: 'failed', failed_at: at }, at);
    },
    async setStatus(t, webhookId, id, status, at) {
      const delivery = stored(t, webhookId, id);
      if (delivery) Object.assign(delivery, { status, updated_at: at });
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
  payload: JSON.stringify({ id: 'evt_1', type: 'workflow.created', created_at: isoTime(nowMs), data: {} }),
});
