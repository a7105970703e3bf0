import { recoverDeliveries } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { recoverRoute } from '../../routes/webhooks';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { redeliveryDeps } from './deps';

const deps = redeliveryDeps(deliveryQueueFromEnvironment);

export const handler = apiHandler(recoverRoute, async ({ principal, params, body }) => ({
  data: await recoverDeliveries(principal, params.id, Date.parse(body.since), deps),
}));
