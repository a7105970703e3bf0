import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType } from '../../core/events/event-types';
import { inDocumentedOrder } from '../../core/events/documented-order';
import { newEvent, type EventRepository, type EventsAfter, type ServiceEvent } from '../../core/events/event';
import { idAfter } from '../../core/ids';
import type { PendingEvent } from '../../core/workflows/workflow';
import type { ListQuery } from '../../core/pagination';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdKeyRange,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
} from './list-page';
import { entityTypes } from './keys';
import * as keys from './table-keys';

/** Fields in the documented order, those of `data` too. */
export const eventFrom = (item: Record<string, unknown>): ServiceEvent => ({
  id: item.id as string,
  type: item.type as EventType,
  created_at: item.created_at as string,
  data: inDocumentedOrder(item.type as EventType, item.data as Record<string, unknown>),
});

/**
 * The transactional outbox: the items that record an event, to be written in the same transaction
 * as the state change that causes it. The table's stream carries the event on to the webhooks.
 */
export const outboxItems = (tableName: string, tenant: Tenant, event: ServiceEvent) => [
  outboxPut(tableName, tenant, event),
  counterUpdate(tableName, keys.events(tenant), 1),
  counterUpdate(tableName, keys.eventsOfType(tenant, event.type), 1),
];

/** The event's own item, written once. */
const outboxPut = (tableName: string, tenant: Tenant, event: ServiceEvent) => ({
  Put: {
    TableName: tableName,
    Item: {
      ...keys.event(tenant, event.id),
      ...keys.eventIndexes(tenant, event.type, event.id),
      entity: entityTypes.event,
      // The fan-out reads whose event it is from the stream record.
      account_id: tenant.accountId,
      mode: tenant.mode,
      ...event,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * The outbox items of several events written in one transaction (a producer recording a burst):
 * their puts and each counter once, by the number of its events, as a transaction names an item once.
 */
export const outboxItemsOfEvents = (tableName: string, tenant: Tenant, events: readonly ServiceEvent[]) => {
  const counts = new Map<string, number>();
  for (const event of events)
    for (const collection of [keys.events(tenant), keys.eventsOfType(tenant, event.type)])
      counts.set(collection, (counts.get(collection) ?? 0) + 1);
  return [
    ...events.map((event) => outboxPut(tableName, tenant, event)),
    ...[...counts].map(([collection, count]) => counterUpdate(tableName, collection, count)),
  ];
};

/**
 * The outbox items of the events a state change causes, all created at `nowMs`: two events of one
 * change move the same counters, which a transaction may name only once.
 */
export const pendingEventItems = (tableName: string, tenant: Tenant, events: PendingEvent[], nowMs: number) =>
  outboxItemsOfEvents(
    tableName,
    tenant,
    events.map((event) => newEvent(event.type, event.data, nowMs)),
  );

/**
 * The sort-key range of the listed events: the created range, narrowed for a forward read to the
 * ids after the anchor and before the settle time. Undefined when nothing can be in it.
 */
const keyRange = (query: ListQuery, after: EventsAfter | undefined): { low: string; high: string } | undefined => {
  if (!after) return createdKeyRange(keys.eventSortKeyPrefix, 'event', query);
  const createdUntil = Math.min(query.createdUntil ?? Infinity, after.settledBeforeMs);
  const narrowed = { ...query, createdUntil };
  const next = idAfter(after.id);
  if (next === undefined || isEmptyCreatedRange(narrowed)) return undefined;
  const created = createdKeyRange(keys.eventSortKeyPrefix, 'event', narrowed);
  const afterAnchor = keys.eventSortKeyPrefix + next;
  const low = afterAnchor > created.low ? afterAnchor : created.low;
  return low <= created.high ? { low, high: created.high } : undefined;
};

const rangeFor = (tenant: Tenant, { low, high }: { low: string; high: string }, type: EventType | undefined): RangeSpec => {
  if (type) {
    const partition = keys.eventsOfType(tenant, type);
    return {
      query: {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high },
      },
      keyAttributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
      partition,
    };
  }
  const partition = keys.events(tenant);
  return {
    query: {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high },
    },
    keyAttributes: ['pk', 'sk'],
    partition,
  };
};

/**
 * One event by id, alone: what `GET /v1/events/{id}` reads (and a forward list, for its anchor).
 * `consistent` for a reader that must find an event just written (the webhook dispatcher).
 */
export const dynamoEventReader = (table: TableRef, options: { consistent?: boolean } = {}): Pick<EventRepository, 'get'> => ({
  async get(tenant, id) {
    const result = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: keys.event(tenant, id), ...(options.consistent ? { ConsistentRead: true } : {}) }),
    );
    return result.Item ? eventFrom(result.Item) : undefined;
  },
});

/** The events of an account, alone: what `GET /v1/events` lists. */
export const dynamoEventList = (table: TableRef): Pick<EventRepository, 'list'> => ({
  async list(tenant, query, { type, after }) {
    const bounds = isEmptyCreatedRange(query) ? undefined : keyRange(query, after);
    if (!bounds) return { items: [], total: 0 };
    const range = rangeFor(tenant, bounds, type);
    const total =
      isDateFiltered(query) || after
        ? await countRange(table, range)
        : await counterValue(table, type ? keys.eventsOfType(tenant, type) : keys.events(tenant));
    // The anchor is part of the query a cursor is bound to; the settle time moves on and is not.
    const page = await listPage<Record<string, unknown>>(table, range, query, total, {
      type: type ?? null,
      ...(after ? { after: after.id } : {}),
    });
    return { ...page, items: page.items.map(eventFrom) };
  },
});

export const dynamoEventRepository = (
  table: TableRef,
): EventRepository & { record(tenant: Tenant, event: ServiceEvent): Promise<void> } => ({
  ...dynamoEventReader(table),

  ...dynamoEventList(table),

  /** An event on its own, with no other state change (system events and tests). */
  async record(tenant, event) {
    await table.client.send(new TransactWriteCommand({ TransactItems: outboxItems(table.tableName, tenant, event) }));
  },
});
