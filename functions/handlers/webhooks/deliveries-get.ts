import { getDelivery } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getDeliveryRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeliveryRepository } from '../../adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const table = tableFromEnvironment();
const deps = { webhooks: dynamoWebhookRepository(table), deliveries: dynamoDeliveryRepository(table) };

export const handler = apiReadHandler(getDeliveryRoute, async ({ principal, params }) => ({
  data: await getDelivery(principal, params.id, params.delivery_id, deps),
}));
