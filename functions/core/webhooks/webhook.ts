import type { EventType } from '../events/event-types';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';

/** `*` subscribes to every type, present and future. */
export type Subscription = EventType | '*';

export interface Webhook {
  id: string;
  url: string;
  events: Subscription[];
  /** Set by the caller. */
  active: boolean;
  /** Set by the service: `failed` after a delivery exhausted its attempts, until re-enabled. */
  status: 'enabled' | 'failed';
  description: string | null;
  created_at: string;
  updated_at: string;
  failed_at: string | null;
  /** Signs every attempt. Shown only by the create and rotate answers. */
  secret: string;
  /** During a rotation the old secret signs too, until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /**
   * What it subscribed to before its recent changes of `active` or `events`, oldest first (never
   * shown): the fan-out judges an event by the subscription of the moment it was recorded, however
   * late the stream hands it over.
   */
  past_subscriptions?: PastSubscription[];
}

/** `active` and `events` as they were until a change at `until`. */
export interface PastSubscription {
  until: string;
  active: boolean;
  events: Subscription[];
}

/** What the API shows of a webhook after its creation: never a secret. */
export type WebhookView = Omit<Webhook, 'secret' | 'previous_secret' | 'past_subscriptions'>;

/**
 * The webhook's fields the API shows, as stored: what a conditional write compares. An answer or
 * an event shows `shownWebhook` instead, which leaves out a previous secret's expired overlap.
 */
export const viewOfWebhook = ({ secret: _s, previous_secret: _p, past_subscriptions: _h, ...view }: Webhook): WebhookView => view;

/** Whether the previous secret still signs beside the current one at `nowMs`. */
const previousSecretSigns = (webhook: Pick<Webhook, 'previous_secret' | 'previous_secret_expires_at'>, nowMs: number): boolean =>
  webhook.previous_secret !== null && webhook.previous_secret_expires_at !== null && Date.parse(webhook.previous_secret_expires_at) > nowMs;

/**
 * The webhook as the API, the dashboard and its events show it at `nowMs`: once the previous secret
 * stops signing, `previous_secret_expires_at` is null, as if the overlap had been cleared (nothing
 * writes it at that moment: the stored time stays until the next rotation replaces it). Its ETag
 * changes then too, as what it shows does.
 */
export const shownWebhook = (webhook: Webhook, nowMs: number): WebhookView => ({
  ...viewOfWebhook(webhook),
  previous_secret_expires_at: previousSecretSigns(webhook, nowMs) ? webhook.previous_secret_expires_at : null,
});

export const isSubscribed = (webhook: Pick<Webhook, 'events'>, type: EventType): boolean =>
  webhook.events.includes('*') || webhook.events.includes(type);

/**
 * The event of a webhook's own move of status: told to the other webhooks subscribed to it, never
 * to the webhook it is about. Its `webhook.failed` would only be recorded as skipped (it is failed
 * by then) and replayed by `recover` after it is enabled again, a stale notice; its
 * `webhook.enabled` alone would tell a receiver that keeps the webhooks' states from their events
 * of a move back without the move out before it. As Svix's operational webhooks, which go to
 * endpoints of their own, never to the endpoint they are about.
 */
export const isOwnStatusEvent = (webhook: Pick<Webhook, 'id'>, event: { type: EventType; data: Record<string, unknown> }): boolean =>
  (event.type === 'webhook.failed' || event.type === 'webhook.enabled') && event.data.id === webhook.id;

/**
 * How long a past subscription is kept: a stream keeps its records 24 hours, so no event older
 * than that is fanned out any more (an hour more for the clocks of the functions that write).
 */
export const pastSubscriptionKeptMs = 25 * 3_600_000;

/** `active` and `events` as they were when `atIso` was (the current ones when nothing changed since). */
export const subscriptionAt = (webhook: Webhook, atIso: string): Pick<Webhook, 'active' | 'events'> =>
  webhook.past_subscriptions?.find((past) => atIso < past.until) ?? webhook;

/**
 * The past subscriptions after a change of `active` or `events` at `nowIso`: the ones kept, and
 * the one the change ends. Undefined when the change leaves the subscription as it was.
 */
export const pastSubscriptionsAfter = (
  webhook: Webhook,
  changes: { active?: boolean; events?: Subscription[] },
  nowIso: string,
): PastSubscription[] | undefined => {
  const sameEvents =
    changes.events === undefined ||
    (changes.events.length === webhook.events.length && changes.events.every((type) => webhook.events.includes(type)));
  if ((changes.active === undefined || changes.active === webhook.active) && sameEvents) return undefined;
  const keptFrom = new Date(Date.parse(nowIso) - pastSubscriptionKeptMs).toISOString();
  return [
    ...(webhook.past_subscriptions ?? []).filter((past) => past.until > keptFrom),
    { until: nowIso, active: webhook.active, events: webhook.events },
  ].slice(-maxPastSubscriptions);
};

/**
 * The most kept, however many changes a day brings: the webhook's item stays far below
 * DynamoDB's 400 KB (each is at most ~1 KB). An event older than the oldest kept is judged by it.
 */
export const maxPastSubscriptions = 100;

/** The secrets that sign an attempt made at `nowMs`. */
export const signingSecrets = (webhook: Webhook, nowMs: number): string[] =>
  previousSecretSigns(webhook, nowMs) && webhook.previous_secret ? [webhook.secret, webhook.previous_secret] : [webhook.secret];

export type WebhookChanges = Partial<
  Pick<
    Webhook,
    | 'url'
    | 'events'
    | 'active'
    | 'description'
    | 'status'
    | 'failed_at'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
    | 'past_subscriptions'
  >
>;

export interface WebhookRef {
  tenant: Tenant;
  id: string;
}

export interface WebhookRepository {
  create(tenant: Tenant, webhook: Webhook): Promise<void>;
  /** `consistent`: read after a write of this request (DynamoDB reads are eventually consistent otherwise). */
  get(tenant: Tenant, id: string, options?: { consistent?: boolean }): Promise<Webhook | undefined>;
  /** Every webhook of the tenant (fan-out reads them all). */
  all(tenant: Tenant): Promise<Webhook[]>;
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: { status?: Webhook['status'] }): Promise<Page<Webhook>>;
  /**
   * With `expected` (an `If-Match`), only while the webhook is still as it was read: `changed`
   * otherwise. `moved`: the event of a change of `status`, written in the same transaction when the
   * status does move (not when it was already there).
   */
  update(
    tenant: Tenant,
    id: string,
    changes: WebhookChanges,
    updatedAt: string,
    expected?: Webhook,
    moved?: PendingEvent,
  ): Promise<Webhook | undefined | 'changed'>;
  /**
   * Replaces the secret only while it is still `from` (two rotations at once: one wins, the other is
   * told), keeping what `changes` says of the previous one.
   */
  rotateSecret(
    tenant: Tenant,
    id: string,
    from: string,
    changes: Required<Pick<WebhookChanges, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>>,
    updatedAt: string,
  ): Promise<Webhook | 'not_found' | 'changed'>;
  /** False when there is none; with `expected`, `changed` when it is no longer as it was read. */
  delete(tenant: Tenant, id: string, expected?: Webhook): Promise<boolean | 'changed'>;
  /** How many of the tenant's webhooks are `failed` (the dashboard's badge), kept as they change. */
  failedCount(tenant: Tenant): Promise<number>;
}
