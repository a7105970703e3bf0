import { pageMeta } from '../../core/pagination';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventRepository } from '../../adapters/dynamodb/event-repository';
import { apiHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listEventsRoute } from '../../routes/events';

const events = dynamoEventRepository(tableFromEnvironment());

export const handler = apiHandler(listEventsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await events.list(principal, query, { type: params.type });
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
