import * as v from 'valibot';
import { eventTypes } from '../../core/events/event-types';
import { documentedAs, freeText, lengthIn, timestampInput } from './common';

/*
 * Each schema is built in one call marked pure, so a bundle keeps only the schemas its handler uses:
 * esbuild keeps any other call of an imported function (valibot's too) whether its result is used or
 * not, and the webhook test route would build the create and update bodies at import.
 */

const subscribable = /* @__PURE__ */ (() => [...eventTypes, '*'] as const)();

const url = /* @__PURE__ */ (() =>
  v.pipe(
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
  ))();

const events = /* @__PURE__ */ (() =>
  v.pipe(
    v.array(v.picklist(subscribable, `must name known event types (${eventTypes.join(', ')}) or *`), 'must be an array of event types'),
    v.minLength(1, 'must name at least one event type, or *'),
    v.maxLength(100, 'must name at most 100 event types'),
    v.description(
      'Event types to receive; `*` receives every type, and with it the list is stored as `["*"]`. A type named twice counts once.',
    ),
  ))();

const description = /* @__PURE__ */ (() =>
  freeText(500, 'At most 500 characters; no control characters other than tab and line breaks.'))();

export const createWebhookBody = /* @__PURE__ */ (() =>
  v.strictObject({
    url,
    events,
    active: v.optional(v.boolean('must be true or false')),
    description: v.optional(description),
  }))();

const changeable = ['url', 'events', 'active', 'description'] as const;

export const updateWebhookBody = /* @__PURE__ */ (() => {
  const schema = v.pipe(
    v.strictObject({
      url: v.optional(url),
      events: v.optional(events),
      active: v.optional(v.boolean('must be true or false')),
      description: v.optional(v.nullable(description)),
    }),
    v.check((changes) => changeable.some((field) => changes[field] !== undefined), `must change at least one of ${changeable.join(', ')}`),
  );
  // A PATCH that changes nothing is refused: the document says so as `minProperties: 1`.
  documentedAs(schema.pipe[1], { minProperties: 1 });
  return schema;
})();

export const rotateSecretBody = /* @__PURE__ */ (() =>
  v.strictObject({
    expires_in: v.optional(
      v.pipe(
        v.number('must be a number of seconds'),
        v.integer('must be a whole number of seconds'),
        v.minValue(0, 'must be at least 0'),
        v.maxValue(7 * 86_400, 'must be at most 604800 (7 days)'),
        v.description('Seconds the previous secret keeps signing beside the new one; default 86400 (24 h), 0 ends it at once.'),
      ),
    ),
  }))();

export const testWebhookBody = /* @__PURE__ */ (() =>
  v.strictObject({
    event_type: v.picklist(eventTypes, `must be one of ${eventTypes.join(', ')}`),
  }))();

export const recoverBody = /* @__PURE__ */ (() =>
  v.strictObject({
    since: timestampInput('must be an ISO 8601 timestamp', 'Failed and skipped deliveries created at or after this time are queued again.'),
  }))();
