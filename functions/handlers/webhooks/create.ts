import { createWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { createWebhookRoute } from '../../routes/webhooks';
import { webhookTargetDeps } from './deps';
import { entityTagOf } from '../../core/preconditions';

const deps = webhookTargetDeps();

export const handler = apiHandler(createWebhookRoute, async ({ principal, body }) => {
  const webhook = await createWebhook(principal, body, deps);
  const { secret: _shownOnce, ...view } = webhook;
  return { data: webhook, location: `/v1/webhooks/${webhook.id}`, etag: entityTagOf(view) };
});
