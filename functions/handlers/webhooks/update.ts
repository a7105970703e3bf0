import { updateWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { updateWebhookRoute } from '../../routes/webhooks';
import { webhookTargetDeps } from './deps';
import { taggedReply } from '../../http/entity-tag';

const deps = webhookTargetDeps();

export const handler = apiHandler(updateWebhookRoute, async ({ principal, params, body, event }) =>
  taggedReply(await updateWebhook(principal, params.id, body, deps, event.headers['if-match'])),
);
