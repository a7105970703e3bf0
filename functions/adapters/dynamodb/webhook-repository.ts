import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../core/tenancy';
import { viewOfWebhook, type Webhook, type WebhookRepository } from '../../core/webhooks/webhook';
import type { TableRef } from './client';
import { failedWebhookCountKey, failedWebhookCountMove, failedWebhookCountOf } from './failed-webhook-count';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdRangeSpec,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
} from './list-page';
import { pendingEventItems } from './event-repository';
import { entityTypes } from './keys';
import { queryAll } from './query-all';
import * as keys from './table-keys';
import { conditionFailedAt, isConditionFailure, type TransactItem, withConflictRetry } from './transactions';
import { unchangedCondition, withCondition } from './unchanged-condition';
import { setExpression, updateExisting } from './update-expression';

/** Fields in the documented order. */
export const webhookFrom = (item: Record<string, unknown>): Webhook => ({
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
  ...(Array.isArray(item.past_subscriptions) ? { past_subscriptions: item.past_subscriptions as Webhook['past_subscriptions'] } : {}),
});

const withStatusCondition = (
  expression: ReturnType<typeof setExpression>,
  condition: string,
  status: Webhook['status'],
): ReturnType<typeof setExpression> & { ConditionExpression: string } => ({
  ...expression,
  ConditionExpression: condition,
  ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#status': 'status' },
  ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ':to': status },
});

/** A webhook by id alone: for the functions that read one and list none (get, deliveries, redeliver, recover). */
export const webhookReads = (table: TableRef): Pick<WebhookRepository, 'get'> => ({
  async get(tenant, id, options) {
    const result = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: keys.webhook(tenant, id), ConsistentRead: options?.consistent === true }),
    );
    return result.Item ? webhookFrom(result.Item) : undefined;
  },
});

/** The webhooks of an account, by creation, optionally of one status. */
const range = (tenant: Tenant, query: Parameters<WebhookRepository['list']>[1], status?: Webhook['status']): RangeSpec =>
  createdRangeSpec(
    keys.webhooks(tenant),
    keys.webhookSortKeyPrefix,
    'webhook',
    query,
    status ? { '#status = :status': { ':status': status } } : {},
    { '#status': 'status' },
  );

/** The webhooks of an account, alone: what `GET /v1/webhooks` reads. */
export const dynamoWebhookList = (table: TableRef): Pick<WebhookRepository, 'list'> => ({
  async list(tenant, query, { status }) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const spec = range(tenant, query, status);
    const total = status || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, keys.webhooks(tenant));
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, { status: status ?? null });
    return { ...page, items: page.items.map(webhookFrom) };
  },
});

/** Runs a transaction: 'done', or the index of the item whose condition refused it. */
const transactWebhook = async ({ client }: TableRef, items: TransactItem[]): Promise<'done' | number> => {
  try {
    await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
    return 'done';
  } catch (error) {
    const refused = items.findIndex((_, index) => conditionFailedAt(error, index));
    if (refused < 0) throw error;
    return refused;
  }
};

/** Deletes the webhook only while it is as `expected` (an `If-Match`): its status as read says which counts move. */
const deleteUnchanged = async (table: TableRef, tenant: Tenant, expected: Webhook): Promise<boolean | 'changed'> => {
  const { tableName } = table;
  const removal: TransactItem = {
    Delete: {
      TableName: tableName,
      Key: keys.webhook(tenant, expected.id),
      ...withCondition({ ConditionExpression: 'attribute_exists(pk)' }, unchangedCondition({ ...viewOfWebhook(expected) })),
    },
  };
  const uncount = counterUpdate(tableName, keys.webhooks(tenant), -1);
  const items = expected.status === 'failed' ? [removal, uncount, failedWebhookCountMove(tableName, tenant, -1)] : [removal, uncount];
  const outcome = await transactWebhook(table, items);
  if (outcome === 'done' || (outcome === 2 && (await transactWebhook(table, [removal, uncount])) === 'done')) return true;
  return (await webhookReads(table).get(tenant, expected.id, { consistent: true })) ? 'changed' : false;
};

/** Deleting a webhook, alone (with the collection's and the failed count): what `DELETE /v1/webhooks/{id}` does. */
export const dynamoWebhookDeletion = (table: TableRef): Pick<WebhookRepository, 'get' | 'delete'> => {
  const { tableName } = table;
  const transact = (items: TransactItem[]) => transactWebhook(table, items);
  const { get } = webhookReads(table);
  return {
    get,
    async delete(tenant, id, expected) {
      const key = keys.webhook(tenant, id);
      if (expected) return deleteUnchanged(table, tenant, expected);
      const removal = (condition: string, status: Webhook['status']): TransactItem => ({
        Delete: {
          TableName: tableName,
          Key: key,
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': status },
        },
      });
      const uncount = counterUpdate(tableName, keys.webhooks(tenant), -1);
      // Most webhooks are not failed: one transaction. A failed one takes one off the failed count too.
      for (let round = 0; round < 4; round += 1) {
        const notFailed = await transact([removal('attribute_exists(pk) AND #status <> :to', 'failed'), uncount]);
        if (notFailed === 'done') return true;
        if (!(await get(tenant, id, { consistent: true }))) return false;
        const failed = await transact([removal('#status = :to', 'failed'), uncount, failedWebhookCountMove(tableName, tenant, -1)]);
        if (failed === 'done') return true;
        if (failed === 2 && (await transact([removal('#status = :to', 'failed'), uncount])) === 'done') return true;
        // Re-enabled or failed meanwhile: look again.
      }
      throw new Error(`webhook ${id} kept changing while it was being deleted`);
    },
  };
};

/**
 * Creating, reading and changing one webhook: what `POST /v1/webhooks` and `PATCH /v1/webhooks/{id}`
 * do. Those functions carry neither the listing nor the deletion.
 */
export const dynamoWebhookWrites = (table: TableRef): Pick<WebhookRepository, 'create' | 'get' | 'update' | 'rotateSecret'> => {
  const { tableName } = table;
  const transact = (items: TransactItem[]) => transactWebhook(table, items);
  const { get } = webhookReads(table);
  return {
    async create(tenant, webhook) {
      const item = { ...keys.webhook(tenant, webhook.id), entity: entityTypes.webhook, ...webhook };
      const put: TransactItem = { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
      const counted: TransactItem[] = [counterUpdate(tableName, keys.webhooks(tenant), 1)];
      if (webhook.status === 'failed') counted.push(failedWebhookCountMove(tableName, tenant, 1));
      if ((await transact([put, ...counted])) !== 'done') throw new Error(`webhook ${webhook.id} exists already`);
    },

    get,

    async rotateSecret(tenant, id, from, changes, updatedAt) {
      const expression = setExpression({ ...changes, updated_at: updatedAt });
      try {
        const result = await table.client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.webhook(tenant, id),
            ...expression,
            ConditionExpression: 'attribute_exists(pk) AND #secret = :from',
            ExpressionAttributeNames: { ...expression.ExpressionAttributeNames, '#secret': 'secret' },
            ExpressionAttributeValues: { ...expression.ExpressionAttributeValues, ':from': from },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return webhookFrom(result.Attributes as Record<string, unknown>);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return (await get(tenant, id, { consistent: true })) ? 'changed' : 'not_found';
      }
    },

    async update(tenant, id, changes, updatedAt, expected, moved) {
      const key = keys.webhook(tenant, id);
      // Written with a move of the status only, in its transaction.
      const movedEvent: TransactItem[] = moved
        ? (pendingEventItems(tableName, tenant, [moved], Date.parse(updatedAt)) as TransactItem[])
        : [];
      const attributes = { ...changes, updated_at: updatedAt };
      const to = changes.status;
      if (to === undefined || expected) {
        const unchanged = expected && unchangedCondition({ ...viewOfWebhook(expected) });
        // An If-Match names the status as read, so whether the failed count moves is known.
        const moves = expected?.status === 'failed' && to === 'enabled' ? -1 : expected?.status === 'enabled' && to === 'failed' ? 1 : 0;
        if (moves === 0) {
          const updated = await updateExisting(table, key, attributes, unchanged);
          return updated === 'changed' || updated === undefined ? updated : webhookFrom(updated);
        }
        const write: TransactItem = {
          Update: {
            TableName: tableName,
            Key: key,
            ...withCondition({ ...setExpression(attributes), ConditionExpression: 'attribute_exists(pk)' }, unchanged),
          },
        };
        const counted = await transact([write, failedWebhookCountMove(tableName, tenant, moves), ...movedEvent]);
        // Refused by the count (it would go below zero): the webhook failed before the count was kept.
        if ((counted === 1 ? await transact([write, ...movedEvent]) : counted) === 'done') return get(tenant, id, { consistent: true });
        return (await get(tenant, id, { consistent: true })) ? 'changed' : undefined;
      }
      const write = (condition: string): TransactItem => ({
        Update: { TableName: tableName, Key: key, ...withStatusCondition(setExpression(attributes), condition, to) },
      });
      // A move into or out of `failed` moves the failed count in the same transaction; a write that
      // leaves the status as it was moves nothing, on the condition that it still is.
      for (let round = 0; round < 4; round += 1) {
        const counted = await transact([
          write('attribute_exists(pk) AND #status <> :to'),
          failedWebhookCountMove(tableName, tenant, to === 'failed' ? 1 : -1),
          ...movedEvent,
        ]);
        // Refused by the count (it would go below zero): the webhook failed before the count was kept.
        const unmoved = counted === 1 ? await transact([write('attribute_exists(pk) AND #status <> :to'), ...movedEvent]) : counted;
        if (unmoved === 'done') return get(tenant, id, { consistent: true });
        if ((await transact([write('#status = :to')])) === 'done') return get(tenant, id, { consistent: true });
        if (!(await get(tenant, id, { consistent: true }))) return undefined;
        // Its status changed meanwhile: look again.
      }
      throw new Error(`webhook ${id} kept changing while it was being updated`);
    },
  };
};

export const dynamoWebhookRepository = (table: TableRef): WebhookRepository => {
  const { client, tableName } = table;

  return {
    ...dynamoWebhookWrites(table),

    async all(tenant) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.webhooks(tenant), ':prefix': keys.webhookSortKeyPrefix },
      });
      return items.map(webhookFrom);
    },

    ...dynamoWebhookList(table),

    ...dynamoWebhookDeletion(table),

    async failedCount(tenant) {
      // Strongly consistent: read after an action that may have just moved it.
      const result = await client.send(new GetCommand({ TableName: tableName, Key: failedWebhookCountKey(tenant), ConsistentRead: true }));
      return failedWebhookCountOf(result.Item);
    },
  };
};
