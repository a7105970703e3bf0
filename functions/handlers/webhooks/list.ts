import { systemClock } from '../../core/clock';
import { pageMeta } from '../../core/pagination';
import { listWebhooks } from '../../core/webhooks/webhook-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listWebhooksRoute } from '../../routes/webhooks';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWebhookList } from '../../adapters/dynamodb/webhook-repository';

// The list alone: no webhook writes, no failed-webhook counter.
const deps = { webhooks: dynamoWebhookList(tableFromEnvironment()), clock: systemClock };

export const handler = apiReadHandler(listWebhooksRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listWebhooks(principal, query, { status: params.status }, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
