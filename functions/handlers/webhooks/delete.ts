import { deleteWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { deleteWebhookRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(deleteWebhookRoute, async ({ principal, params }) => {
  await deleteWebhook(principal, params.id, deps);
  return { empty: true };
});
