import * as v from 'valibot';
import { eventTypes } from '../../core/events/event-types';
import { listQuery, picklistParam } from './common';

export const listWebhooksQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    status: v.optional(picklistParam(['enabled', 'failed'] as const, 'Only webhooks in this status.')),
  }))();

export const listDeliveriesQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    status: v.optional(picklistParam(['pending', 'succeeded', 'failed', 'skipped'] as const, 'Only deliveries in this status.')),
    event_type: v.optional(picklistParam(eventTypes, 'Only deliveries of this event type.')),
  }))();
