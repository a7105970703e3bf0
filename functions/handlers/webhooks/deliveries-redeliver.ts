import { redeliver } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { redeliverRoute } from '../../routes/webhooks';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { redeliveryDeps } from './deps';

const deps = redeliveryDeps(deliveryQueueFromEnvironment);

export const handler = apiHandler(redeliverRoute, async ({ principal, params }) => ({
  data: await redeliver(principal, params.id, params.delivery_id, deps),
}));
