import { getWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getWebhookRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const deps = { webhooks: dynamoWebhookRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(getWebhookRoute, async ({ principal, params }) => ({
  data: await getWebhook(principal, params.id, deps),
}));
