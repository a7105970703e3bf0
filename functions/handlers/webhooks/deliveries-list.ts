import { pageMeta } from '../../core/pagination';
import { listDeliveries } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listDeliveriesRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryList } from '../../adapters/dynamodb/delivery-repository';
import { webhookReads } from '../../adapters/dynamodb/webhook-repository';

const table = tableFromEnvironment();
// The webhook (it must exist) and its deliveries: no writes, no attempts, no claims.
const deps = { webhooks: webhookReads(table), deliveries: dynamoDeliveryList(table) };

export const handler = apiReadHandler(listDeliveriesRoute, async ({ principal, params, query: input }) => {
  const query = toListQuery(input, 'created_at');
  const page = await listDeliveries(principal, params.id, query, { status: input.status, event_type: input.event_type }, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
