import { pageMeta } from '../../core/pagination';
import { listDeliveries } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listDeliveriesRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const table = tableFromEnvironment();
const deps = { webhooks: dynamoWebhookRepository(table), deliveries: dynamoDeliveryRepository(table) };

export const handler = apiReadHandler(listDeliveriesRoute, async ({ principal, params, query: input }) => {
  const query = toListQuery(input, 'created_at');
  const page = await listDeliveries(principal, params.id, query, { status: input.status, event_type: input.event_type }, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
