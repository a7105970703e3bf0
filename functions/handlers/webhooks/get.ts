import { systemClock } from '../../core/clock';
import { getWebhook } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getWebhookRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { webhookReads } from '../../adapters/dynamodb/webhook-repository';
import { taggedReply } from '../../http/entity-tag';

// A read wires the one call it makes: no webhook writes, no list paging.
const deps = { webhooks: webhookReads(tableFromEnvironment()), clock: systemClock };

export const handler = apiReadHandler(getWebhookRoute, async ({ principal, params, event }) =>
  taggedReply(await getWebhook(principal, params.id, deps), event.headers['if-none-match']),
);
