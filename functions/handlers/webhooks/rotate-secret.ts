import { rotateWebhookSecret } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { rotateWebhookSecretRoute } from '../../routes/webhooks';
import { webhookDeps } from './deps';

const deps = webhookDeps();

export const handler = apiHandler(rotateWebhookSecretRoute, async ({ principal, params, body }) => ({
  data: await rotateWebhookSecret(principal, params.id, body.expires_in, deps),
}));
