import * as v from 'valibot';
import { eventTypes } from '../../core/events/event-types';
import { timestamp } from './common';

export const eventSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix evt_; use it to ignore duplicate deliveries')),
  type: v.picklist(eventTypes),
  created_at: timestamp,
  data: v.pipe(v.record(v.string(), v.unknown()), v.description('A snapshot of the resource after the change')),
});

export const eventTypeSchema = v.object({
  type: v.picklist(eventTypes),
  description: v.string(),
  example: v.record(v.string(), v.unknown()),
});
