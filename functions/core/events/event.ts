import { isoTime } from '../clock';
import { newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { EventType } from './event-types';

/** What a webhook receives and `GET /v1/events/{id}` shows. */
export interface ServiceEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}

export const newEvent = (type: EventType, data: Record<string, unknown>, nowMs: number): ServiceEvent => ({
  id: newId('event', nowMs),
  type,
  created_at: isoTime(nowMs),
  data,
});

/** A forward read: events after `id`, created before `settledBeforeMs` (see `followSettleMs`). */
export interface EventsAfter {
  id: string;
  settledBeforeMs: number;
}

export interface EventRepository {
  get(tenant: Tenant, id: string): Promise<ServiceEvent | undefined>;
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: { type?: EventType; after?: EventsAfter }): Promise<Page<ServiceEvent>>;
}
