import { type Clock, isoTime } from '../clock';
import { ApiError, conflict, notFound, validationError } from '../errors';
import { checkIfMatch, preconditionFailed } from '../preconditions';
import { eventCatalogue, type EventType } from '../events/event-types';
import { newEvent } from '../events/event';
import { mapWithConcurrency } from '../concurrency';
import { isId, newId } from '../ids';
import { changesNothing } from '../no-op-change';
import { maxChangeAttempts } from '../optimistic-update';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import {
  type DeliveryListFilters,
  type DeliveryQueue,
  type DeliveryRepository,
  type DeliveryRestarts,
  type DeliveryView,
  stranded,
  strandedCutoff,
  viewOfDelivery,
  waitingForRetry,
} from './delivery';
import type { SendAttempt } from './dispatch';
import { attemptRecord, signedRequest } from './dispatch';
import { eventPayload } from './event-payload';
import { firstAttemptMessage, newDelivery } from './fan-out';
import { generateWebhookSecret } from './signature';
import type { TargetPolicy } from './target-policy';
import {
  pastSubscriptionsAfter,
  shownWebhook,
  type Subscription,
  type Webhook,
  type WebhookChanges,
  type WebhookRepository,
  type WebhookView,
} from './webhook';

export interface WebhookDeps {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  queue: DeliveryQueue;
  clock: Clock;
  policyFor(mode: Tenant['mode']): TargetPolicy;
  /** Creation-time check of a target: refused when it is, or resolves to, a forbidden address. */
  assessTarget(url: string, policy: TargetPolicy): Promise<{ ok: true } | { ok: false; reason: string }>;
  send: SendAttempt;
  userAgent: string;
  /**
   * Bound on the attempt of `POST /webhooks/{id}/test`, made while the caller waits: at most
   * `testAttemptTimeoutMs`, well inside the route's time limit, so a slow receiver ends as the
   * attempt's `timeout` result, never as the function's own timeout.
   */
  testAttemptTimeoutMs: number;
}

/** A test attempt gets as long as a delivery attempt; its routes allow 10 s more (`testRouteTimeoutSeconds`). */
export const testAttemptTimeoutMs = 10_000;

/** The one answer that carries the secret: creation and rotation. */
export type WebhookWithSecret = WebhookView & { secret: string };

/** The old secret keeps signing this long after a rotation unless the caller says otherwise. */
export const defaultRotationOverlapSeconds = 86_400;

/** What creating and updating a webhook use: no deliveries, no queue, no HTTP client. */
export interface WebhookTargetDeps extends Pick<WebhookDeps, 'clock' | 'policyFor' | 'assessTarget'> {
  webhooks: Pick<WebhookRepository, 'create' | 'get' | 'update'>;
}

/** What the test attempt uses. */
/** What a test delivery uses: the webhook read, one attempt sent, and its delivery record written. */
export interface WebhookTestDeps extends Pick<WebhookDeps, 'clock' | 'policyFor' | 'send' | 'userAgent' | 'testAttemptTimeoutMs'> {
  webhooks: Pick<WebhookRepository, 'get'>;
  deliveries: Pick<DeliveryRepository, 'create'>;
}

/** What redelivering and recovering use: the delivery records and the queue, no HTTP client. */
export interface RedeliveryDeps extends Pick<WebhookDeps, 'queue' | 'clock'> {
  webhooks: Pick<WebhookRepository, 'get'>;
  deliveries: DeliveryRestarts;
}

const checkedTarget = async (url: string, tenant: Tenant, deps: Pick<WebhookDeps, 'policyFor' | 'assessTarget'>): Promise<void> => {
  const verdict = await deps.assessTarget(url, deps.policyFor(tenant.mode));
  if (!verdict.ok) throw validationError([{ field: 'url', issue: verdict.reason }]);
};

const existing = async (
  tenant: Tenant,
  id: string,
  deps: { webhooks: Pick<WebhookRepository, 'get'> },
  options?: { consistent?: boolean },
): Promise<Webhook> => {
  const webhook = isId('webhook', id) ? await deps.webhooks.get(tenant, id, options) : undefined;
  if (!webhook) throw notFound('Webhook');
  return webhook;
};

/** Each type once; `*` (every type) stands alone, as a list with it means nothing more. */
const uniqueEvents = (events: Subscription[]): Subscription[] => (events.includes('*') ? ['*'] : [...new Set(events)]);

export interface NewWebhook {
  url: string;
  events: Subscription[];
  active?: boolean;
  description?: string;
}

export const createWebhook = async (tenant: Tenant, input: NewWebhook, deps: WebhookTargetDeps): Promise<WebhookWithSecret> => {
  await checkedTarget(input.url, tenant, deps);
  const nowMs = deps.clock.now();
  const webhook: Webhook = {
    id: newId('webhook', nowMs),
    url: input.url,
    events: uniqueEvents(input.events),
    active: input.active ?? true,
    status: 'enabled',
    description: input.description ?? null,
    created_at: isoTime(nowMs),
    updated_at: isoTime(nowMs),
    failed_at: null,
    secret: generateWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
  };
  await deps.webhooks.create(tenant, webhook);
  return { ...shownWebhook(webhook, nowMs), secret: webhook.secret };
};

export const getWebhook = async (
  tenant: Tenant,
  id: string,
  deps: { webhooks: Pick<WebhookRepository, 'get'>; clock: Clock },
): Promise<WebhookView> => shownWebhook(await existing(tenant, id, deps), deps.clock.now());

export const listWebhooks = async (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: { status?: Webhook['status'] },
  deps: { webhooks: Pick<WebhookRepository, 'list'>; clock: Clock },
): Promise<Page<WebhookView>> => {
  const page = await deps.webhooks.list(tenant, query, filters);
  const nowMs = deps.clock.now();
  return { ...page, items: page.items.map((webhook) => shownWebhook(webhook, nowMs)) };
};

export interface WebhookUpdate {
  url?: string;
  events?: Subscription[];
  active?: boolean;
  description?: string | null;
}

/**
 * `active: true` on a failed webhook re-enables it: new events are delivered again. A change of
 * `active` or `events` keeps what it ends (`past_subscriptions`) and is stored only over the
 * webhook as read (read again and retried when something else changed it meanwhile), so the
 * fan-out judges every event by the subscription of the moment it was recorded; so is a re-enable,
 * whose `webhook.enabled` tells the webhook as it stores it, and so is every other change, so that
 * one giving every field as stored is known to be one: nothing is written (no event, `updated_at`
 * and the `ETag` unmoved) and the webhook is answered as it is.
 */
export const updateWebhook = async (
  tenant: Tenant,
  id: string,
  changes: WebhookUpdate,
  deps: WebhookTargetDeps,
  ifMatch?: string,
): Promise<WebhookView> => {
  const events = changes.events ? uniqueEvents(changes.events) : undefined;
  let targetChecked = false;
  for (let attempt = 1; attempt <= maxChangeAttempts; attempt += 1) {
    // Judged against what the last write stored, and written only while it still is.
    const webhook = await existing(tenant, id, deps, { consistent: true });
    const nowMs = deps.clock.now();
    checkIfMatch(ifMatch, shownWebhook(webhook, nowMs));
    const reEnable = changes.active === true && webhook.status === 'failed';
    if (!reEnable && changesNothing(webhook, { ...changes, events })) return shownWebhook(webhook, nowMs);
    if (changes.url !== undefined && !targetChecked) {
      await checkedTarget(changes.url, tenant, deps);
      targetChecked = true;
    }
    const nowIso = isoTime(nowMs);
    const past = pastSubscriptionsAfter(webhook, { active: changes.active, events }, nowIso);
    const stored: WebhookChanges = {
      ...changes,
      ...(events ? { events } : {}),
      ...(reEnable ? { status: 'enabled', failed_at: null } : {}),
      ...(past ? { past_subscriptions: past } : {}),
    };
    const enabled = reEnable ? shownWebhook({ ...webhook, ...stored, updated_at: nowIso } as Webhook, nowMs) : undefined;
    const updated = await deps.webhooks.update(
      tenant,
      id,
      stored,
      nowIso,
      webhook,
      enabled && { type: 'webhook.enabled', data: { ...enabled } },
    );
    if (updated === 'changed') {
      if (ifMatch !== undefined) throw preconditionFailed();
      continue;
    }
    if (!updated) throw notFound('Webhook');
    return shownWebhook(updated, nowMs);
  }
  throw new Error(`webhook ${id} kept changing; gave up after ${maxChangeAttempts} attempts`);
};

export const deleteWebhook = async (
  tenant: Tenant,
  id: string,
  deps: { webhooks: Pick<WebhookRepository, 'get' | 'delete'>; clock: Clock },
  ifMatch?: string,
): Promise<void> => {
  let expected: Webhook | undefined;
  if (ifMatch !== undefined) {
    expected = await existing(tenant, id, deps, { consistent: true });
    checkIfMatch(ifMatch, shownWebhook(expected, deps.clock.now()));
  }
  const deleted = isId('webhook', id) ? await deps.webhooks.delete(tenant, id, expected) : false;
  if (deleted === 'changed') throw preconditionFailed();
  if (!deleted) throw notFound('Webhook');
};

/** A new secret; the old one keeps signing beside it for `expiresInSeconds` (0 ends it at once). */
export const rotateWebhookSecret = async (
  tenant: Tenant,
  id: string,
  expiresInSeconds: number | undefined,
  deps: Pick<WebhookDeps, 'webhooks' | 'clock'>,
): Promise<WebhookWithSecret> => {
  // Read consistently: the rotation is conditional on the secret read here.
  const webhook = await existing(tenant, id, deps, { consistent: true });
  const nowMs = deps.clock.now();
  const overlap = expiresInSeconds ?? defaultRotationOverlapSeconds;
  const secret = generateWebhookSecret();
  const updated = await deps.webhooks.rotateSecret(
    tenant,
    id,
    webhook.secret,
    {
      secret,
      previous_secret: overlap > 0 ? webhook.secret : null,
      previous_secret_expires_at: overlap > 0 ? isoTime(nowMs + overlap * 1000) : null,
    },
    isoTime(nowMs),
  );
  if (updated === 'not_found') throw notFound('Webhook');
  // Another rotation won: this secret was never stored, so it must not be handed out.
  if (updated === 'changed')
    throw conflict('The secret was rotated by another request meanwhile; read the webhook and rotate again if needed.');
  return { ...shownWebhook(updated, nowMs), secret };
};

/**
 * One signed attempt of an example event of `type`, made now and recorded in the delivery log;
 * never retried, and never marks the webhook failed.
 */
export const testWebhook = async (tenant: Tenant, id: string, type: EventType, deps: WebhookTestDeps): Promise<DeliveryView> => {
  const webhook = await existing(tenant, id, deps);
  const nowMs = deps.clock.now();
  const event = newEvent(type, { ...eventCatalogue[type].example }, nowMs);
  const delivery = { ...newDelivery(webhook, event, 'pending', nowMs, true), attempt_count: 1, attempt_claimed_at: isoTime(nowMs) };
  const request = signedRequest(webhook, delivery, eventPayload(event), 1, nowMs, deps.userAgent);
  const result = await deps.send({ ...request, policy: deps.policyFor(tenant.mode), timeoutMs: deps.testAttemptTimeoutMs });
  const recorded = {
    ...delivery,
    status: result.ok ? ('succeeded' as const) : ('failed' as const),
    next_attempt_at: null,
    attempts: [attemptRecord(1, 1, nowMs, request.url, result)],
    updated_at: isoTime(deps.clock.now()),
  };
  await deps.deliveries.create(tenant, recorded);
  return viewOfDelivery(recorded);
};

export const listDeliveries = async (
  tenant: Tenant,
  webhookId: string,
  query: ListQuery<'created_at'>,
  filters: DeliveryListFilters,
  deps: { webhooks: Pick<WebhookRepository, 'get'>; deliveries: Pick<DeliveryRepository, 'list'> },
): Promise<Page<DeliveryView>> => {
  await existing(tenant, webhookId, deps);
  const page = await deps.deliveries.list(tenant, webhookId, query, filters);
  return { ...page, items: page.items.map(viewOfDelivery) };
};

export const getDelivery = async (
  tenant: Tenant,
  webhookId: string,
  id: string,
  deps: { webhooks: Pick<WebhookRepository, 'get'>; deliveries: Pick<DeliveryRepository, 'get'> },
): Promise<DeliveryView> => {
  await existing(tenant, webhookId, deps);
  const delivery = isId('delivery', id) ? await deps.deliveries.get(tenant, webhookId, id) : undefined;
  if (!delivery) throw notFound('Delivery');
  return viewOfDelivery(delivery);
};

const reEnableFirst = (): ApiError =>
  new ApiError('conflict', 'Re-enable the webhook first (PATCH it with {"active": true}); a failed or inactive webhook receives nothing.');

/**
 * A new sequence of attempts of the same event (same event id), starting now: of a delivery that
 * succeeded or failed, one waiting for its next retry ("retry now", as Svix's resend), or one
 * stranded (pending with no message left to attempt it).
 */
export const redeliver = async (tenant: Tenant, webhookId: string, id: string, deps: RedeliveryDeps): Promise<DeliveryView> => {
  const webhook = await existing(tenant, webhookId, deps);
  const delivery = isId('delivery', id) ? await deps.deliveries.get(tenant, webhookId, id) : undefined;
  if (!delivery) throw notFound('Delivery');
  if (delivery.test) throw conflict('A test delivery is never retried; send another test instead.');
  const nowMs = deps.clock.now();
  const cutoff = strandedCutoff(nowMs);
  // Waiting for a retry, it may be tried now; an attempt on its way (or a first one queued) is not
  // repeated, unless it was due long ago and nothing claimed it since: its message is gone.
  if (delivery.status === 'pending' && !waitingForRetry(delivery) && !stranded(delivery, cutoff))
    throw conflict('This delivery is being attempted right now; redeliver it once that attempt has its result.');
  // Queued for a failed or paused webhook, it would only be skipped: say so now instead.
  if (webhook.status === 'failed' || !webhook.active) throw reEnableFirst();
  const restarted = await deps.deliveries.restart(tenant, webhookId, delivery, isoTime(nowMs), cutoff);
  if (restarted === 'not_found') throw notFound('Delivery');
  // Another redelivery (or recovery) started it meanwhile: one send, not two.
  if (restarted === 'changed') throw conflict('This delivery was redelivered meanwhile; it is being attempted.');
  await deps.queue.send(firstAttemptMessage(tenant, restarted, nowMs));
  return viewOfDelivery(restarted);
};

/**
 * Deliveries one `recover` call queues again at most: what it does stays well inside the 29 s an
 * API answer may take. `has_more` tells the caller to call again (those queued are pending now, so
 * the next call goes on with the rest).
 */
export const maxRecoveredPerCall = 500;

/**
 * Queues again the failed, skipped and stranded deliveries created since `sinceMs`, oldest first,
 * up to `maxRecoveredPerCall`.
 */
export const recoverDeliveries = async (
  tenant: Tenant,
  webhookId: string,
  sinceMs: number,
  deps: RedeliveryDeps,
): Promise<{ webhook_id: string; since: string; requeued: number; has_more: boolean }> => {
  const webhook = await existing(tenant, webhookId, deps);
  if (webhook.status === 'failed' || !webhook.active) throw reEnableFirst();
  const nowMs = deps.clock.now();
  const cutoff = strandedCutoff(nowMs);
  const missed = await deps.deliveries.findSince(tenant, webhookId, ['failed', 'skipped'], sinceMs, maxRecoveredPerCall + 1, cutoff);
  const batch = missed.slice(0, maxRecoveredPerCall);
  const queued = await mapWithConcurrency(batch, 8, async (delivery) => {
    const restarted = await deps.deliveries.restart(tenant, webhookId, delivery, isoTime(nowMs), cutoff);
    // Gone, or started again by another request meanwhile: not queued twice.
    if (typeof restarted === 'string') return false;
    await deps.queue.send(firstAttemptMessage(tenant, restarted, nowMs));
    return true;
  });
  return {
    webhook_id: webhookId,
    since: isoTime(sinceMs),
    requeued: queued.filter(Boolean).length,
    has_more: missed.length > batch.length,
  };
};
