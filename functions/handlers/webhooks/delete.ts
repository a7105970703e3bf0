import { systemClock } from '../../core/clock';
import { deleteWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { deleteWebhookRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookDeletion } from '../../adapters/dynamodb/webhook-repository';

// The deletion alone: no other webhook writes, no list paging.
const deps = { webhooks: dynamoWebhookDeletion(tableFromEnvironment()), clock: systemClock };

export const handler = apiReadHandler(deleteWebhookRoute, async ({ principal, params, event }) => {
  await deleteWebhook(principal, params.id, deps, event.headers['if-match']);
  return { empty: true };
});
