import { redeliver } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { redeliverRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(redeliverRoute, async ({ principal, params }) => ({
  data: await redeliver(principal, params.id, params.delivery_id, deps),
}));
