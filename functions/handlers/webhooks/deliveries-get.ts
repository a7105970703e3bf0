import { getDelivery } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getDeliveryRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryReader } from '../../adapters/dynamodb/delivery-repository';
import { webhookReads } from '../../adapters/dynamodb/webhook-repository';

const table = tableFromEnvironment();
// The webhook (it must exist) and one delivery: one GetItem each.
const deps = { webhooks: webhookReads(table), deliveries: dynamoDeliveryReader(table) };

export const handler = apiReadHandler(getDeliveryRoute, async ({ principal, params }) => ({
  data: await getDelivery(principal, params.id, params.delivery_id, deps),
}));
