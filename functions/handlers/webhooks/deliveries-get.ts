import { getDelivery } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { getDeliveryRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(getDeliveryRoute, async ({ principal, params }) => ({
  data: await getDelivery(principal, params.id, params.delivery_id, deps),
}));
