import { testWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { testWebhookRoute } from '../../routes/webhooks';
import { webhookTestDeps } from './deps';

const deps = webhookTestDeps();

export const handler = apiHandler(testWebhookRoute, async ({ principal, params, body }) => ({
  data: await testWebhook(principal, params.id, body.event_type, deps),
}));
