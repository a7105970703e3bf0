import { testWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { testWebhookRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(testWebhookRoute, async ({ principal, params, body }) => ({
  data: await testWebhook(principal, params.id, body.event_type, deps),
}));
