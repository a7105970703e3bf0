import { getWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { getWebhookRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(getWebhookRoute, async ({ principal, params }) => ({
  data: await getWebhook(principal, params.id, deps),
}));
