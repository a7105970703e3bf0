import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventReader } from '../../adapters/dynamodb/event-repository';
import { notFound } from '../../core/errors';
import { isId } from '../../core/ids';
import { apiReadHandler } from '../../http/api-handler';
import { getEventRoute } from '../../routes/events';

// A read wires the one call it makes: no outbox writes, no list paging.
const events = dynamoEventReader(tableFromEnvironment());

export const handler = apiReadHandler(getEventRoute, async ({ principal, params }) => {
  const event = isId('event', params.id) ? await events.get(principal, params.id) : undefined;
  if (!event) throw notFound('Event');
  return { data: event };
});
