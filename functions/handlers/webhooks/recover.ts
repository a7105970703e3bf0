import { recoverDeliveries } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { recoverRoute } from '../../routes/webhooks';
import { deliveryQueueFromEnvironment } from '../../adapters/runtime/delivery-queue';
import { webhookDeps } from './deps';

const deps = webhookDeps(deliveryQueueFromEnvironment);

export const handler = apiHandler(recoverRoute, async ({ principal, params, body }) => ({
  data: await recoverDeliveries(principal, params.id, Date.parse(body.since), deps),
}));
