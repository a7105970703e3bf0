import * as v from 'valibot';
import { idParams } from './schemas/common';
import { listEventsQuery } from './schemas/events-queries';
import { eventSchema, eventTypeSchema } from './schemas/events';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Events';

export const listEventTypesRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listEventTypes',
  summary: 'The event catalogue',
  description: 'Every event type, with a description and an example payload `data`. Served without credentials.',
  tag,
  method: 'GET',
  path: '/v1/event-types',
  handler: 'events/types',
  scope: null,
  tableAccess: 'none',
  success: { status: 200, description: 'Every event type, in `data`.' },
});

export const listEventsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listEvents',
  summary: 'List events',
  tag,
  method: 'GET',
  path: '/v1/events',
  handler: 'events/list',
  scope: 'read:webhooks',
  tableAccess: 'read',
  query: listEventsQuery,
  description:
    'Newest first by default. To follow the stream (as `listen` does), pass `starting_after` with the last event id you have: ' +
    'events after it come oldest first, and polling again with the last id of each page never skips or repeats one.',
  success: { status: 200, description: 'A page of events, newest first by default.', list: true },
});

export const getEventRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getEvent',
  summary: 'Get an event',
  tag,
  method: 'GET',
  path: '/v1/events/{id}',
  handler: 'events/get',
  scope: 'read:webhooks',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The event, as webhooks receive it.' },
  errors: [404],
});

export const eventRoutes = [listEventTypesRoute, listEventsRoute, getEventRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const eventResponses = {
  // Pure, as the calls inside: a function that imports this file without the map builds nothing of it.
  listEventTypes: /* @__PURE__ */ v.object({ data: /* @__PURE__ */ v.array(eventTypeSchema) }),
  listEvents: eventSchema,
  getEvent: eventSchema,
} satisfies ResponseSchemas;
