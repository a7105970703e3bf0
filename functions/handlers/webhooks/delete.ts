import { deleteWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { deleteWebhookRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const deps = { webhooks: dynamoWebhookRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(deleteWebhookRoute, async ({ principal, params }) => {
  await deleteWebhook(principal, params.id, deps);
  return { empty: true };
});
