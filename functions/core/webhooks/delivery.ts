import { isoTime } from '../clock';
import type { EventType } from '../events/event-types';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';
import type { Webhook } from './webhook';

/**
 * Why an attempt failed. `not_attempted`: the service gave up on the delivery before making it (its
 * queue message was dead-lettered: the dispatcher failed on it again and again), so nothing was sent.
 */
export type AttemptErrorClass = 'timeout' | 'connection' | 'tls' | 'dns' | 'refused_target' | 'http_status' | 'not_attempted';

export interface DeliveryAttempt {
  /** Which sequence of attempts: 1, then one more per redelivery or recovery. */
  sequence: number;
  number: number;
  attempted_at: string;
  /**
   * Where the attempt was sent: the webhook's URL when it was made (a retry goes to the URL of its
   * moment, so after a change the log tells which attempts went where). Null when not known: an
   * attempt cut short before its result was recorded, or recorded before attempts kept it.
   */
  url: string | null;
  status_code: number | null;
  duration_ms: number;
  error: AttemptErrorClass | null;
  error_message: string | null;
  response_excerpt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: EventType;
  status: DeliveryStatus;
  /** A one-off attempt from `POST /webhooks/{id}/test`: never retried, never fails the webhook. */
  test: boolean;
  sequence: number;
  /** Attempts claimed in the current sequence; stored before each attempt is made. */
  attempt_count: number;
  /** When the latest attempt was claimed. */
  attempt_claimed_at: string | null;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * The exact body every attempt sends, stored only where the event itself is not: a test
   * delivery's example event. Deliveries of recorded events leave it out: their queue messages
   * carry it, or the dispatcher reads the event (immutable, never deleted), the same bytes every
   * attempt. Deliveries stored with it before it was left out still send it.
   */
  payload?: string;
}

export type DeliveryView = Omit<Delivery, 'payload'>;

export const viewOfDelivery = ({ payload: _p, ...view }: Delivery): DeliveryView => view;

/** Retries after 5 s, 30 s, 5 min, 30 min and 2 h, each counted from the end of the failed attempt. */
export const retryDelaysMs = [5_000, 30_000, 300_000, 1_800_000, 7_200_000] as const;
export const maxAttempts = retryDelaysMs.length + 1;

/**
 * The largest body a queue message carries, as JSON-escaped UTF-8: ten such messages stay well
 * within SQS's 256 KiB per batch, and a larger event is read from the table instead.
 */
export const maxCarriedPayloadBytes = 16 * 1024;

/** `payload` when a queue message may carry it. */
export const carriedPayload = (payload: string): { payload: string } | Record<string, never> =>
  new TextEncoder().encode(JSON.stringify(payload)).length <= maxCarriedPayloadBytes ? { payload } : {};

/** One message of the delivery queue: make attempt `attempt` of `sequence`, not before `not_before`. */
export interface DeliveryMessage {
  account_id: string;
  mode: Tenant['mode'];
  webhook_id: string;
  delivery_id: string;
  /** The delivery's event; absent from messages queued before it was added. */
  event_id?: string;
  /**
   * The body to send, carried from the fan-out (and on to each retry) when it is small enough
   * (`maxCarriedPayloadBytes`); without it the dispatcher reads the event. Either way the same bytes.
   */
  payload?: string;
  sequence: number;
  attempt: number;
  not_before: number;
}

export interface DeliveryQueue {
  /** Sends the message to be processed at `message.not_before` at the earliest. */
  send(message: DeliveryMessage): Promise<void>;
  /** Sends many at once, in as few requests as the queue allows (one at a time where it has no batches). */
  sendMany?(messages: readonly DeliveryMessage[]): Promise<void>;
}

/** Sends every message, batched where the queue can. */
export const sendAll = async (queue: DeliveryQueue, messages: readonly DeliveryMessage[]): Promise<void> => {
  if (messages.length === 0) return;
  if (queue.sendMany) await queue.sendMany(messages);
  else for (const message of messages) await queue.send(message);
};

export interface DeliveryListFilters {
  status?: DeliveryStatus;
  event_type?: EventType;
}

export interface DeliveryRepository {
  /** False when a delivery of this id exists already (fan-out may run twice for one event). */
  create(tenant: Tenant, delivery: Delivery): Promise<boolean>;
  /**
   * Creates many deliveries of the tenant in as few writes as the store allows, each counted in its
   * webhook's collection. Per delivery, in order: false when it existed already. Safe to run again
   * after a failure (what was written stays, once).
   */
  /**
   * `onWritten`, when given, is awaited after each write with the indexes of the deliveries that
   * write created, so that they can be queued while the rest are written.
   */
  createMany(
    tenant: Tenant,
    deliveries: readonly Delivery[],
    onWritten?: (created: readonly number[]) => Promise<void>,
  ): Promise<boolean[]>;
  get(tenant: Tenant, webhookId: string, id: string): Promise<Delivery | undefined>;
  list(tenant: Tenant, webhookId: string, query: ListQuery<'created_at'>, filters: DeliveryListFilters): Promise<Page<Delivery>>;
  /**
   * Deliveries (not tests) of the webhook in these statuses created at or after `sinceMs`, oldest
   * first (the first `atMost`); with `strandedBefore`, also the pending ones `stranded` at that cutoff.
   */
  findSince(
    tenant: Tenant,
    webhookId: string,
    statuses: DeliveryStatus[],
    sinceMs: number,
    atMost?: number,
    strandedBefore?: string,
  ): Promise<Delivery[]>;
  /**
   * Claims attempt `attempt` of `sequence`: stores `attempt_count = attempt` only if it was
   * `attempt - 1` and the delivery is still pending in that sequence.
   */
  claimAttempt(tenant: Tenant, webhookId: string, id: string, sequence: number, attempt: number, at: string): Promise<boolean>;
  /** `claimAttempt` in the same write, answering the delivery as claimed (undefined when the claim failed). */
  claim(tenant: Tenant, webhookId: string, id: string, sequence: number, attempt: number, at: string): Promise<Delivery | undefined>;
  /** Appends the attempt and sets the new status and next attempt time, if still in `sequence`. */
  recordAttempt(
    tenant: Tenant,
    webhookId: string,
    id: string,
    attempt: DeliveryAttempt,
    outcome: { status: DeliveryStatus; next_attempt_at: string | null },
    at: string,
  ): Promise<void>;
  /**
   * Starts a new sequence of attempts after `from` (the delivery as read: finished, or pending and
   * `waitingForRetry`): pending, attempt count 0, only while it is still as read (the same sequence;
   * not pending, or still waiting with no attempt claimed since): of two restarts at once, or a
   * restart and a claim, one wins and the restart is told `changed`. Keeps the latest
   * `keptAttempts` of its attempts. With `strandedBefore`, a pending delivery whose first attempt
   * was due before that cutoff and never claimed (`stranded`) restarts too, on the same condition.
   */
  restart(
    tenant: Tenant,
    webhookId: string,
    from: Delivery,
    at: string,
    strandedBefore?: string,
  ): Promise<Delivery | 'changed' | 'not_found'>;
  /**
   * Gives up on attempt `attempt.number` of `attempt.sequence` without making it: claims it (only
   * while the delivery is pending in that sequence with `attempt_count = number - 1`, so no attempt
   * is on its way) and, in the same write, records `attempt` and ends the delivery `failed`. False
   * when that condition failed (the delivery moved on meanwhile), changing nothing.
   */
  abandon(tenant: Tenant, webhookId: string, id: string, attempt: DeliveryAttempt, at: string): Promise<boolean>;
  /**
   * The last attempt failed: the delivery fails and so does its webhook, in one transaction. When
   * the webhook moves into `failed` the transaction also writes `failed(webhook)`, its
   * `webhook.failed` event, of the webhook as stored by that move (whatever changed since the
   * dispatcher read it), and the answer is true. When another delivery failed it first, the
   * delivery fails on the condition that the webhook still is failed, which it leaves as it is
   * (its `failed_at` stays the time of its move), and the answer is false.
   */
  failWithWebhook(
    tenant: Tenant,
    webhookId: string,
    id: string,
    attempt: DeliveryAttempt,
    at: string,
    failed: (webhook: Webhook) => PendingEvent,
  ): Promise<boolean>;
  setStatus(tenant: Tenant, webhookId: string, id: string, status: DeliveryStatus, at: string): Promise<void>;
}

/**
 * What deleting a webhook leaves behind: its deliveries and their count, which nothing can read
 * once the webhook is gone (its delivery log answers 404).
 */
export interface DeletedWebhookDeliveries {
  /**
   * Deletes every delivery of the webhook, and their count, while the webhook does not exist: each
   * write checks that it is still absent, so nothing of a webhook that exists is ever deleted.
   * Answers how many deliveries went, or `webhook_exists`.
   */
  removeAll(tenant: Tenant, webhookId: string): Promise<number | 'webhook_exists'>;
}

/**
 * A pending delivery between two attempts of its sequence: at least one made, each with its result,
 * and the next one not claimed yet. Redelivering it is "retry now": the scheduled retry then belongs
 * to the old sequence and is dropped when it comes.
 */
export const waitingForRetry = (delivery: Pick<Delivery, 'status' | 'sequence' | 'attempt_count' | 'attempts'>): boolean =>
  delivery.status === 'pending' &&
  delivery.attempt_count > 0 &&
  delivery.attempts.filter((attempt) => attempt.sequence === delivery.sequence).length === delivery.attempt_count;

/**
 * How long after its attempt was due a pending delivery with no attempt claimed since (or one
 * claimed this long ago with no result) counts as stranded: no queue message is left to make that
 * attempt. A message the dispatcher fails on is received 5 times, 3 minutes apart, before it is
 * dead-lettered and settled, about 15 minutes; twice that leaves room for a queue backlog.
 */
export const strandedAfterMs = 30 * 60_000;

/** The cutoff `stranded` judges by at `nowMs`, as the stored times write it. */
export const strandedCutoff = (nowMs: number): string => isoTime(nowMs - strandedAfterMs);

/**
 * A pending delivery whose attempt was due before `cutoff` and has not been claimed since `cutoff`
 * (never, or by a dispatcher long gone): its message was lost (dead-lettered before the service
 * settled dead letters, or never sent), so nothing will attempt it. Redeliver and recover restart it.
 */
export const stranded = (
  delivery: Pick<Delivery, 'status' | 'test' | 'next_attempt_at' | 'created_at' | 'attempt_claimed_at'>,
  cutoff: string,
): boolean =>
  delivery.status === 'pending' &&
  !delivery.test &&
  (delivery.next_attempt_at ?? delivery.created_at) < cutoff &&
  (delivery.attempt_claimed_at === null || delivery.attempt_claimed_at < cutoff);

/** What redelivering and recovering use of the deliveries. */
export type DeliveryRestarts = Pick<DeliveryRepository, 'get' | 'findSince' | 'restart'>;

/**
 * How many attempts of its earlier sequences a delivery keeps when it is redelivered: with the six
 * of its new sequence, a delivery holds at most twelve (each with up to 4 KiB of response), so a
 * delivery redelivered again and again stays far below DynamoDB's 400 KB item and a page of the
 * delivery log below Lambda's 6 MB answer.
 */
export const keptAttempts = 6;

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}
