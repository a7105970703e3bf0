import { validationError } from '../errors';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { EventRepository, ServiceEvent } from './event';
import type { EventType } from './event-types';

/**
 * How old an event must be before a `starting_after` reader sees it. An event's id is drawn just
 * before the transaction that stores it, so a slow transaction can commit an id lower than one
 * already read; waiting until every transaction that drew an earlier id has committed (and the
 * type index has caught up) is what lets a follower move past an id for good: no gaps.
 */
export const followSettleMs = 5_000;

export interface ListEventsFilters {
  type?: EventType;
  /** Only events after this one (by id, i.e. creation order), oldest first. */
  startingAfter?: string;
}

export interface ListEventsDeps {
  events: EventRepository;
  now(): number;
}

/**
 * A page of the account's events. With `startingAfter` the list reads forward from that event
 * (ascending only), and holds back events younger than `followSettleMs` so that a follower that
 * stores the last id it saw resumes with no gap and no duplicate.
 */
export const listEvents = async (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: ListEventsFilters,
  deps: ListEventsDeps,
): Promise<Page<ServiceEvent>> => {
  if (filters.startingAfter === undefined) return deps.events.list(tenant, query, { type: filters.type });
  if (query.order !== 'asc') {
    throw validationError([{ field: 'order', issue: 'must be asc (or left out) with starting_after, which reads oldest first' }]);
  }
  const anchor = await deps.events.get(tenant, filters.startingAfter);
  if (!anchor) throw validationError([{ field: 'starting_after', issue: 'is not an event of this account and mode' }]);
  return deps.events.list(tenant, query, {
    type: filters.type,
    after: { id: anchor.id, settledBeforeMs: deps.now() - followSettleMs },
  });
};
