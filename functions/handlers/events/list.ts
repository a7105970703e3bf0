import { listEvents } from '../../core/events/list-events';
import { pageMeta } from '../../core/pagination';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventList, dynamoEventReader } from '../../adapters/dynamodb/event-repository';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listEventsRoute } from '../../routes/events';

// The list and the anchor of a forward read: no outbox writes.
const table = tableFromEnvironment();
const deps = { events: { ...dynamoEventReader(table), ...dynamoEventList(table) }, now: () => Date.now() };

export const handler = apiReadHandler(listEventsRoute, async ({ principal, query: params }) => {
  // A forward read (starting_after) lists oldest first unless told otherwise.
  const query = toListQuery({ ...params, order: params.order ?? (params.starting_after ? 'asc' : undefined) }, 'created_at');
  const page = await listEvents(principal, query, { type: params.type, startingAfter: params.starting_after }, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
