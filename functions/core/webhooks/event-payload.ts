import type { ServiceEvent } from '../events/event';

/**
 * The body every attempt of every delivery of this event sends. Built from the event as stored
 * (written once, never changed, its data's fields in the documented order), so that every attempt
 * of a delivery, retries and redeliveries included, sends the same bytes.
 */
export const eventPayload = (event: ServiceEvent): string =>
  JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
