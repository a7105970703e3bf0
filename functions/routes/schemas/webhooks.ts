import * as v from 'valibot';
import { eventTypes } from '../../core/events/event-types';
import { documentedAs, lengthIn, listQuery, picklistParam, timestamp, timestampInput } from './common';

const subscribable = [...eventTypes, '*'] as const;

const url = v.pipe(
  v.string('must be a string'),
  lengthIn(1, 2048, 'must be 1 to 2048 characters'),
  v.url('must be an absolute http or https URL'),
  // Schemes are case-insensitive; JSON Schema's `pattern` takes no flags, so each letter says so.
  v.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, 'must be an absolute http or https URL'),
  v.description(
    'Where events are POSTed: an absolute http or https URL, https only in live mode (test mode takes http too). ' +
      'Targets with a user name or password, and hosts that are or resolve to private, loopback, link-local or ' +
      'cloud-metadata addresses are refused (422); the local runtime lets test-mode webhooks reach loopback and private addresses.',
  ),
);

const events = v.pipe(
  v.array(v.picklist(subscribable, `must name known event types (${eventTypes.join(', ')}) or *`), 'must be an array of event types'),
  v.minLength(1, 'must name at least one event type, or *'),
  v.maxLength(100, 'must name at most 100 event types'),
  v.description('Event types to receive; `*` receives every type.'),
);

const description = v.pipe(v.string('must be a string'), lengthIn(0, 500, 'must be at most 500 characters'));

export const webhookSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix wh_')),
  url: v.string(),
  events: v.array(v.string()),
  active: v.pipe(v.boolean(), v.description('Set by you; an inactive webhook receives nothing.')),
  status: v.pipe(
    v.picklist(['enabled', 'failed']),
    v.description('`failed` after a delivery exhausted its 6 attempts; `active: true` re-enables it.'),
  ),
  description: v.nullable(v.string()),
  created_at: timestamp,
  updated_at: timestamp,
  failed_at: v.nullable(timestamp),
  previous_secret_expires_at: v.pipe(v.nullable(timestamp), v.description('Until then the previous secret signs beside the current one.')),
});

export const webhookWithSecretSchema = v.object({
  ...webhookSchema.entries,
  secret: v.pipe(v.string(), v.description('whsec_…: shown only in this answer. Verify X-Service-Signature with it.')),
});

export const createWebhookBody = v.strictObject({
  url,
  events,
  active: v.optional(v.boolean('must be true or false')),
  description: v.optional(description),
});

const changeable = ['url', 'events', 'active', 'description'] as const;

export const updateWebhookBody = v.pipe(
  v.strictObject({
    url: v.optional(url),
    events: v.optional(events),
    active: v.optional(v.boolean('must be true or false')),
    description: v.optional(v.nullable(description)),
  }),
  v.check((changes) => changeable.some((field) => changes[field] !== undefined), `must change at least one of ${changeable.join(', ')}`),
);
// A PATCH that changes nothing is refused: the document says so as `minProperties: 1`.
documentedAs(updateWebhookBody.pipe[1], { minProperties: 1 });

export const rotateSecretBody = v.strictObject({
  expires_in: v.optional(
    v.pipe(
      v.number('must be a number of seconds'),
      v.integer('must be a whole number of seconds'),
      v.minValue(0, 'must be at least 0'),
      v.maxValue(7 * 86_400, 'must be at most 604800 (7 days)'),
      v.description('Seconds the previous secret keeps signing beside the new one; default 86400 (24 h), 0 ends it at once.'),
    ),
  ),
});

export const testWebhookBody = v.strictObject({
  event_type: v.picklist(eventTypes, `must be one of ${eventTypes.join(', ')}`),
});

export const recoverBody = v.strictObject({
  since: timestampInput('must be an ISO 8601 timestamp', 'Failed and skipped deliveries created at or after this time are queued again.'),
});

export const listWebhooksQuery = listQuery(['created_at'] as const, {
  status: v.optional(picklistParam(['enabled', 'failed'] as const, 'Only webhooks in this status.')),
});

const attemptSchema = v.object({
  sequence: v.number(),
  number: v.number(),
  attempted_at: timestamp,
  status_code: v.nullable(v.number()),
  duration_ms: v.number(),
  error: v.nullable(v.picklist(['timeout', 'connection', 'tls', 'dns', 'refused_target', 'http_status'])),
  error_message: v.nullable(v.string()),
  response_excerpt: v.pipe(v.string(), v.description('At most the first 4 KiB of the response body.')),
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

export const listDeliveriesQuery = listQuery(['created_at'] as const, {
  status: v.optional(picklistParam(['pending', 'succeeded', 'failed', 'skipped'] as const, 'Only deliveries in this status.')),
  event_type: v.optional(picklistParam(eventTypes, 'Only deliveries of this event type.')),
});

export const recoverResultSchema = v.object({ webhook_id: v.string(), since: timestamp, requeued: v.number() });

export const deliveryParams = v.object({ id: v.string(), delivery_id: v.string() });
