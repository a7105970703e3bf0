import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventRepository } from '../../adapters/dynamodb/event-repository';
import { notFound } from '../../core/errors';
import { isId } from '../../core/ids';
import { apiReadHandler } from '../../http/api-handler';
import { getEventRoute } from '../../routes/events';

const events = dynamoEventRepository(tableFromEnvironment());

export const handler = apiReadHandler(getEventRoute, async ({ principal, params }) => {
  const event = isId('event', params.id) ? await events.get(principal, params.id) : undefined;
  if (!event) throw notFound('Event');
  return { data: event };
});
