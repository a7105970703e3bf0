import { redeliver } from '../../../core/webhooks/webhook-use-cases';
import { deliveryQueueFromEnvironment } from '../../../adapters/runtime/delivery-queue';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { redeliverPageRoute } from '../../../routes/dashboard-resources';
import { redeliveryDeps } from '../../webhooks/deps';
import { webhookIdOf } from './webhook-pages';

const deps = redeliveryDeps(deliveryQueueFromEnvironment);

/** As `POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver`: a new sequence of attempts of the same event. */
export const handler = dashboardPage(
  redeliverPageRoute,
  async (request) => {
    const id = webhookIdOf(request);
    await redeliver(request.tenant, id, request.event.pathParameters?.delivery_id ?? '', deps);
    return { redirect: `/dashboard/webhooks/${encodeURIComponent(id)}?done=redelivered` };
  },
  { adminOnly: true },
);
