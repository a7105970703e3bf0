import { updateWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { updateWebhookRoute } from '../../routes/webhooks';
import { webhookTargetDeps } from './deps';

const deps = webhookTargetDeps();

export const handler = apiHandler(updateWebhookRoute, async ({ principal, params, body }) => ({
  data: await updateWebhook(principal, params.id, body, deps),
}));
