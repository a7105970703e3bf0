import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../core/tenancy';
import type { Webhook, WebhookRepository } from '../../core/webhooks/webhook';
import type { TableRef } from './client';
import { deleteFromCollection, putInCollection } from './collection-writes';
import { countRange, counterValue, createdRangeSpec, isDateFiltered, isEmptyCreatedRange, listPage, type RangeSpec } from './list-page';
import { entityTypes } from './keys';
import * as keys from './table-keys';
import { updateExisting } from './update-expression';

/** Fields in the documented order. */
const webhookFrom = (item: Record<string, unknown>): Webhook => ({
  id: item.id as string,
  url: item.url as string,
  events: item.events as Webhook['events'],
  active: item.active as boolean,
  status: item.status as Webhook['status'],
  description: (item.description as string | null | undefined) ?? null,
  created_at: item.created_at as string,
  updated_at: item.updated_at as string,
  failed_at: (item.failed_at as string | null | undefined) ?? null,
  secret: item.secret as string,
  previous_secret: (item.previous_secret as string | null | undefined) ?? null,
  previous_secret_expires_at: (item.previous_secret_expires_at as string | null | undefined) ?? null,
});

/** A webhook by id alone: for the functions that read one and list none (redeliver, recover). */
export const webhookReads = (table: TableRef): Pick<WebhookRepository, 'get'> => ({
  async get(tenant, id) {
    const result = await table.client.send(new GetCommand({ TableName: table.tableName, Key: keys.webhook(tenant, id) }));
    return result.Item ? webhookFrom(result.Item) : undefined;
  },
});

export const dynamoWebhookRepository = (table: TableRef): WebhookRepository => {
  const { client, tableName } = table;

  const range = (tenant: Tenant, query: Parameters<WebhookRepository['list']>[1], status?: Webhook['status']): RangeSpec =>
    createdRangeSpec(
      keys.webhooks(tenant),
      keys.webhookSortKeyPrefix,
      'webhook',
      query,
      status ? { '#status = :status': { ':status': status } } : {},
      { '#status': 'status' },
    );

  return {
    async create(tenant, webhook) {
      const item = { ...keys.webhook(tenant, webhook.id), entity: entityTypes.webhook, ...webhook };
      if (!(await putInCollection(table, item, keys.webhooks(tenant)))) throw new Error(`webhook ${webhook.id} exists already`);
    },

    get: webhookReads(table).get,

    async all(tenant) {
      const webhooks: Webhook[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const result = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': keys.webhooks(tenant), ':prefix': keys.webhookSortKeyPrefix },
            ExclusiveStartKey: startKey,
          }),
        );
        webhooks.push(...(result.Items ?? []).map(webhookFrom));
        startKey = result.LastEvaluatedKey;
      } while (startKey);
      return webhooks;
    },

    async list(tenant, query, { status }) {
      if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
      const spec = range(tenant, query, status);
      const total = status || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, keys.webhooks(tenant));
      const page = await listPage<Record<string, unknown>>(table, spec, query, total, { status: status ?? null });
      return { ...page, items: page.items.map(webhookFrom) };
    },

    async update(tenant, id, changes, updatedAt) {
      const updated = await updateExisting(table, keys.webhook(tenant, id), { ...changes, updated_at: updatedAt });
      return updated ? webhookFrom(updated) : undefined;
    },

    delete: (tenant, id) => deleteFromCollection(table, keys.webhook(tenant, id), keys.webhooks(tenant)),
  };
};
