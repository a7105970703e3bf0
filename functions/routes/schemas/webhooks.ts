import * as v from 'valibot';
import { timestamp } from './common';

export const webhookSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix wh_')),
  url: v.string(),
  events: v.array(v.string()),
  active: v.pipe(
    v.boolean(),
    v.description(
      'Set by you; an inactive (paused) webhook receives nothing and records no delivery for the events meanwhile (they stay at `GET /v1/events`); a delivery already queued is closed as `skipped`.',
    ),
  ),
  status: v.pipe(
    v.picklist(['enabled', 'failed']),
    v.description('`failed` after a delivery exhausted its 6 attempts; `active: true` re-enables it.'),
  ),
  description: v.nullable(v.string()),
  created_at: timestamp,
  updated_at: timestamp,
  failed_at: v.nullable(timestamp),
  previous_secret_expires_at: v.pipe(
    v.nullable(timestamp),
    v.description(
      'Until then the previous secret (replaced by a rotation) signs beside the current one. Null when none does: never rotated, rotated with `expires_in: 0`, or the overlap is over.',
    ),
  ),
});

export const webhookWithSecretSchema = v.object({
  ...webhookSchema.entries,
  secret: v.pipe(v.string(), v.description('whsec_…: shown only in this answer. Verify X-Service-Signature with it.')),
});

const attemptSchema = v.object({
  sequence: v.number(),
  number: v.number(),
  attempted_at: timestamp,
  url: v.pipe(
    v.nullable(v.string()),
    v.description(
      "Where the attempt was sent: the webhook's URL at that moment (a retry or redelivery goes to the URL of its moment). Null when not known: an attempt interrupted before its result was recorded, or one recorded before attempts kept their URL.",
    ),
  ),
  status_code: v.nullable(v.number()),
  duration_ms: v.pipe(
    v.number(),
    v.description(
      'How long the attempt took, from resolving the target to the end of the answer read, in ms. A `timeout` waited the whole limit: never less than it.',
    ),
  ),
  error: v.pipe(
    v.nullable(v.picklist(['timeout', 'connection', 'tls', 'dns', 'refused_target', 'http_status', 'not_attempted'])),
    v.description(
      'Why the attempt failed. `not_attempted`: nothing was sent; the service failed to process the delivery 5 times in a row and ended it (url null, status_code null): redeliver or recover it.',
    ),
  ),
  error_message: v.nullable(v.string()),
  response_excerpt: v.pipe(
    v.string(),
    v.description(
      'The start of the response body: at most 4 KiB as this JSON carries it (a control character counts as its escape, `\\u0000` six bytes), so a binary answer keeps fewer characters.',
    ),
  ),
});

export const deliverySchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix dlv_; sent as X-Service-Delivery-Id')),
  webhook_id: v.string(),
  event_id: v.pipe(v.string(), v.description('Sent as X-Service-Event-Id: the same on every retry and redelivery')),
  event_type: v.string(),
  status: v.picklist(['pending', 'succeeded', 'failed', 'skipped']),
  test: v.boolean(),
  sequence: v.pipe(v.number(), v.description('1, then one more per redelivery or recovery')),
  attempt_count: v.number(),
  attempt_claimed_at: v.nullable(timestamp),
  attempts: v.array(attemptSchema),
  next_attempt_at: v.nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
});

export const recoverResultSchema = v.object({
  webhook_id: v.string(),
  since: timestamp,
  requeued: v.number(),
  has_more: v.pipe(v.boolean(), v.description('More failed or skipped deliveries wait: call again with the same `since` to queue them.')),
});

export const deliveryParams = v.object({ id: v.string(), delivery_id: v.string() });
