import { deleteWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiHandler } from '../../http/api-handler';
import { deleteWebhookRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';

const deps = { webhooks: dynamoWebhookRepository(tableFromEnvironment()) };

export const handler = apiHandler(deleteWebhookRoute, async ({ principal, params }) => {
  await deleteWebhook(principal, params.id, deps);
  return { empty: true };
});
