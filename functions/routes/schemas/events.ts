import * as v from 'valibot';
import { eventCatalogue, eventTypes } from '../../core/events/event-types';
import { timestamp } from './common';
import { eventDataSchemas } from './event-data';

const eventId = /* @__PURE__ */ (() => v.pipe(v.string(), v.description('Prefix evt_; use it to ignore duplicate deliveries')))();

/** An event of each type, its `data` that type's schema: a union discriminated by `type`. */
export const eventSchema = /* @__PURE__ */ (() =>
  v.variant(
    'type',
    eventTypes.map((type) =>
      v.object({
        id: eventId,
        type: v.pipe(v.literal(type), v.description(eventCatalogue[type].description)),
        created_at: timestamp,
        // The component itself (not a copy), so the document refers to it by name.
        data: eventDataSchemas[type].schema,
      }),
    ),
  ))();

/** A catalogue entry: the type, what it means, and an example of its `data`. */
export const eventTypeSchema = /* @__PURE__ */ (() =>
  v.variant(
    'type',
    eventTypes.map((type) => v.object({ type: v.literal(type), description: v.string(), example: eventDataSchemas[type].schema })),
  ))();

/**
 * The schemas the OpenAPI document names under `components/schemas` and refers to wherever they
 * are used: each event type's data (a resource's own where the data is that resource) and the event.
 */
export const eventComponents = /* @__PURE__ */ (() => ({
  ...Object.fromEntries(Object.values(eventDataSchemas).map(({ component, schema }) => [component, schema])),
  Event: eventSchema,
}))() as Record<string, v.GenericSchema>;
