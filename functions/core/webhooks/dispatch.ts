import { type Clock, isoTime } from '../clock';
import type { Tenant } from '../tenancy';
import type { AccountRepository } from '../credentials/credential';
import type { ServiceEvent } from '../events/event';
import {
  type DeletedWebhookDeliveries,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryMessage,
  type DeliveryQueue,
  type DeliveryRepository,
  type Mailer,
  maxAttempts,
  retryDelaysMs,
  waitingForRetry,
} from './delivery';
import type { DispatchReads } from './batch-reads';
import { eventPayload } from './event-payload';
import { signatureHeader } from './signature';
import type { TargetPolicy } from './target-policy';
import { shownWebhook, signingSecrets, type Webhook } from './webhook';

/** One attempt over the network (the HTTP adapter); never throws. */
export type SendAttempt = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  policy: TargetPolicy;
  /** Bound on the whole attempt; the sender's own default (10 s) when absent. */
  timeoutMs?: number;
}) => Promise<{
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: DeliveryAttempt['error'];
  errorMessage: string | null;
  responseExcerpt: string;
}>;

export interface DispatchDeps extends DispatchReads {
  deliveries: DeliveryRepository;
  /** A message of a deleted webhook takes the webhook's remaining deliveries with it. */
  deletedWebhookDeliveries: DeletedWebhookDeliveries;
  accounts: AccountRepository;
  queue: DeliveryQueue;
  mailer: Mailer;
  send: SendAttempt;
  clock: Clock;
  /** Where a webhook of this mode may send. */
  policyFor(mode: Tenant['mode']): TargetPolicy;
  userAgent: string;
  /** Multiplies every retry delay: 1 in AWS; the local runtime's LOCAL_TIME_SCALE. */
  delayScale: number;
}

/** A claimed attempt with no result after this long was cut short by a crash: it counts as failed. */
export const attemptLeaseMs = 60_000;

const tenantOf = (message: DeliveryMessage): Tenant => ({ accountId: message.account_id, mode: message.mode });

/** What one delivery attempt sends besides its body. */
export interface DeliveryHeaderFields {
  payload: string;
  secrets: string[];
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  nowMs: number;
  userAgent: string;
}

/**
 * The headers of a delivery attempt, signed at `nowMs`. The CLI's `listen` sends its forwarded
 * events with these too, so a receiver cannot tell the two apart.
 */
export const deliveryHeaders = (fields: DeliveryHeaderFields): Record<string, string> => ({
  'Content-Type': 'application/json',
  'User-Agent': fields.userAgent,
  'X-Service-Signature': signatureHeader(fields.payload, fields.secrets, Math.floor(fields.nowMs / 1000)),
  'X-Service-Event-Id': fields.eventId,
  'X-Service-Event-Type': fields.eventType,
  'X-Service-Delivery-Id': fields.deliveryId,
  'X-Service-Attempt': String(fields.attempt),
});

/**
 * The signed request of one attempt of `delivery`, sending `payload`; signed afresh each time, with
 * every live secret. A test delivery (`POST /webhooks/{id}/test`: an example event, never recorded)
 * says so in `X-Service-Test`, so a receiver can answer it without acting on its made-up data.
 */
export const signedRequest = (
  webhook: Webhook,
  delivery: Delivery,
  payload: string,
  attempt: number,
  nowMs: number,
  userAgent: string,
) => ({
  url: webhook.url,
  body: payload,
  headers: {
    ...deliveryHeaders({
      payload,
      secrets: signingSecrets(webhook, nowMs),
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      deliveryId: delivery.id,
      attempt,
      nowMs,
      userAgent,
    }),
    ...(delivery.test ? { 'X-Service-Test': 'true' } : {}),
  },
});

/** What the delivery log keeps of one attempt. */
export const attemptRecord = (
  sequence: number,
  number: number,
  startedMs: number,
  url: string,
  result: Awaited<ReturnType<SendAttempt>>,
): DeliveryAttempt => ({
  sequence,
  number,
  attempted_at: isoTime(startedMs),
  url,
  status_code: result.statusCode,
  duration_ms: Math.round(result.durationMs),
  error: result.error,
  error_message: result.errorMessage,
  response_excerpt: result.responseExcerpt,
});

const nextMessage = (message: DeliveryMessage, nowMs: number, delayScale: number): DeliveryMessage => ({
  ...message,
  attempt: message.attempt + 1,
  not_before: nowMs + Math.round((retryDelaysMs[message.attempt - 1] ?? 0) * delayScale),
});

const notifyFailure = async (tenant: Tenant, webhook: Webhook, delivery: Delivery, deps: DispatchDeps): Promise<void> => {
  const account = await deps.accounts.get(tenant.accountId);
  if (!account) return;
  await deps.mailer.send({
    to: account.email,
    subject: `Webhook ${webhook.id} failed and is paused`,
    text:
      `Every attempt to deliver event ${delivery.event_id} (${delivery.event_type}) to ${webhook.url} failed ` +
      `(${maxAttempts} attempts over about 2 h 36 min). The webhook is marked failed and receives no new deliveries; ` +
      'events that occur meanwhile are recorded as skipped deliveries.\n\n' +
      `Re-enable it with PATCH /v1/webhooks/${webhook.id} {"active": true}, then replay what it missed with ` +
      `POST /v1/webhooks/${webhook.id}/recover {"since": "<time>"}.`,
  });
};

/** Records the result of attempt `message.attempt` and schedules what follows. */
const settle = async (
  message: DeliveryMessage,
  webhook: Webhook,
  delivery: Delivery,
  attempt: DeliveryAttempt,
  ok: boolean,
  deps: DispatchDeps,
): Promise<void> => {
  const tenant = tenantOf(message);
  const nowMs = deps.clock.now();
  const at = isoTime(nowMs);
  if (ok) {
    await deps.deliveries.recordAttempt(tenant, webhook.id, delivery.id, attempt, { status: 'succeeded', next_attempt_at: null }, at);
    return;
  }
  if (message.attempt >= maxAttempts) {
    // The event tells the webhook as the move stores it (not as read before the attempt: it may
    // have been changed meanwhile); the e-mail goes with the move too, once, whichever delivery made it.
    const moved = await deps.deliveries.failWithWebhook(tenant, webhook.id, delivery.id, attempt, at, (failed) => ({
      type: 'webhook.failed',
      data: { ...shownWebhook(failed, nowMs) },
    }));
    if (moved) await notifyFailure(tenant, webhook, delivery, deps);
    return;
  }
  const next = nextMessage(message, nowMs, deps.delayScale);
  await deps.deliveries.recordAttempt(
    tenant,
    webhook.id,
    delivery.id,
    attempt,
    { status: 'pending', next_attempt_at: isoTime(next.not_before) },
    at,
  );
  await deps.queue.send(next);
};

/** How the queue handed the message over. */
export interface MessageReceipt {
  /** Times the message was received, this one included (SQS's `ApproximateReceiveCount`). */
  receiveCount: number;
}

/**
 * Processes one queue message: at-least-once safe. The attempt is claimed (its number stored)
 * before the request is made, so a duplicate message never repeats an attempt, and an attempt cut
 * short by a crash is counted as failed and followed by its retry. A message received again whose
 * attempt's result is recorded queues that attempt's retry again (the earlier receive may have
 * failed to send it); a retry already sent is then a duplicate, dropped by its claim.
 */
export const dispatchDelivery = async (
  message: DeliveryMessage,
  deps: DispatchDeps,
  receipt: MessageReceipt = { receiveCount: 1 },
): Promise<void> => {
  const tenant = tenantOf(message);
  const nowMs = deps.clock.now();
  if (nowMs < message.not_before) {
    // Queues delay 15 minutes at most: the message comes back until its time has come.
    await deps.queue.send(message);
    return;
  }
  // The webhook first: a paused or deleted one gets no claim. The claim answers the delivery itself.
  // An event the message does not carry is read beside it (together, for a batch), and must be
  // there before a claim is made.
  const eventRead = message.payload !== undefined || message.event_id === undefined ? undefined : deps.events.get(tenant, message.event_id);
  // Awaited below, unless the webhook ends the dispatch first: its failure then goes unread.
  eventRead?.catch(() => undefined);
  const webhook = await deps.webhooks.get(tenant, message.webhook_id);
  if (!webhook || !webhook.active || webhook.status === 'failed') {
    await closeWithoutAttempt(message, webhook, deps);
    return;
  }
  const event = await eventRead;
  if (eventRead && !event) throw eventNotStored(message.event_id, message.delivery_id);
  const delivery = await deps.deliveries.claim(tenant, webhook.id, message.delivery_id, message.sequence, message.attempt, isoTime(nowMs));
  if (!delivery) {
    const current = await deps.deliveries.get(tenant, webhook.id, message.delivery_id);
    if (current && current.status === 'pending' && current.sequence === message.sequence) {
      await recoverInterruptedAttempt(message, webhook, current, receipt, deps);
    }
    return;
  }

  // A body stored with the delivery (before bodies were left out) stays the one every attempt sends.
  const payload = delivery.payload ?? message.payload ?? eventPayload(event ?? (await storedEvent(tenant, delivery, deps)));
  const request = signedRequest(webhook, delivery, payload, message.attempt, nowMs, deps.userAgent);
  const result = await deps.send({ ...request, policy: deps.policyFor(message.mode) });
  await settle(message, webhook, delivery, attemptRecord(message.sequence, message.attempt, nowMs, request.url, result), result.ok, deps);
};

const eventNotStored = (eventId: string | undefined, deliveryId: string): Error =>
  new Error(`event ${eventId} of delivery ${deliveryId} is not stored`);

/** The delivery's event, for a message queued before messages named it: its claim is made, so a missing event counts as a failed attempt. */
const storedEvent = async (tenant: Tenant, delivery: Delivery, deps: DispatchDeps): Promise<ServiceEvent> => {
  const event = await deps.events.get(tenant, delivery.event_id);
  if (!event) throw eventNotStored(delivery.event_id, delivery.id);
  return event;
};

/**
 * The message's webhook is paused or failed meanwhile: the delivery is skipped (recoverable later
 * with /recover), if it still waits for this sequence. Or the webhook is gone: so are its
 * deliveries, this one and any the fan-out created after the webhook's own removal had run (it
 * read the webhook before the deletion).
 */
const closeWithoutAttempt = async (message: DeliveryMessage, webhook: Webhook | undefined, deps: DispatchDeps): Promise<void> => {
  const tenant = tenantOf(message);
  if (!webhook) {
    const removed = await deps.deletedWebhookDeliveries.removeAll(tenant, message.webhook_id);
    // The webhook was read as missing a moment after it was created: the message comes back.
    if (removed === 'webhook_exists') throw new Error(`webhook ${message.webhook_id} exists but was not read`);
    return;
  }
  const delivery = await deps.deliveries.get(tenant, message.webhook_id, message.delivery_id);
  if (!delivery || delivery.status !== 'pending' || delivery.sequence !== message.sequence) return;
  await deps.deliveries.setStatus(tenant, message.webhook_id, delivery.id, 'skipped', isoTime(deps.clock.now()));
};

/**
 * Queues again the retry that follows the recorded attempt `message.attempt`, at its scheduled
 * time, when the delivery still waits for it (pending in the message's sequence, that retry not
 * claimed yet): the message that should have queued it may have failed to. False when it does not wait.
 */
export const requeueRecordedRetry = async (message: DeliveryMessage, delivery: Delivery, deps: DispatchDeps): Promise<boolean> => {
  const { next_attempt_at: nextAttemptAt } = delivery;
  if (delivery.sequence !== message.sequence || delivery.attempt_count !== message.attempt) return false;
  if (!waitingForRetry(delivery) || nextAttemptAt === null) return false;
  await deps.queue.send({ ...message, attempt: message.attempt + 1, not_before: Date.parse(nextAttemptAt) });
  return true;
};

/**
 * The attempt was claimed already. If its result is recorded, this message or another copy of it
 * did the work; received again, this one may have failed to queue the retry after it: queued again.
 * If not recorded, and the claim is older than the lease, the dispatcher that claimed it died: the
 * attempt counts as failed and the schedule goes on.
 */
const recoverInterruptedAttempt = async (
  message: DeliveryMessage,
  webhook: Webhook,
  delivery: Delivery,
  receipt: MessageReceipt,
  deps: DispatchDeps,
): Promise<void> => {
  const recorded = delivery.attempts.some((a) => a.sequence === message.sequence && a.number === message.attempt);
  const claimedAt = delivery.attempt_claimed_at ? Date.parse(delivery.attempt_claimed_at) : 0;
  const nowMs = deps.clock.now();
  if (delivery.attempt_count !== message.attempt) return;
  if (recorded) {
    // A first receive is a duplicate copy: whoever recorded the result sent the retry, or was received again.
    if (receipt.receiveCount > 1) await requeueRecordedRetry(message, delivery, deps);
    return;
  }
  if (nowMs - claimedAt < attemptLeaseMs) {
    // Possibly still running elsewhere: look again once the lease is over.
    await deps.queue.send({ ...message, not_before: claimedAt + attemptLeaseMs });
    return;
  }
  const attempt: DeliveryAttempt = {
    sequence: message.sequence,
    number: message.attempt,
    attempted_at: delivery.attempt_claimed_at ?? isoTime(nowMs),
    // The URL it was sent to died with the dispatcher that claimed it (the webhook's may have changed since).
    url: null,
    status_code: null,
    duration_ms: 0,
    error: 'connection',
    error_message: 'the attempt was interrupted before its result was recorded',
    response_excerpt: '',
  };
  await settle(message, webhook, delivery, attempt, false, deps);
};
