import { rotateWebhookSecret } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { rotateWebhookSecretRoute } from '../../routes/webhooks';
import { systemClock } from '../../core/clock';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const deps = { webhooks: dynamoWebhookRepository(tableFromEnvironment()), clock: systemClock };

export const handler = apiHandler(rotateWebhookSecretRoute, async ({ principal, params, body }) => ({
  data: await rotateWebhookSecret(principal, params.id, body.expires_in, deps),
}));
