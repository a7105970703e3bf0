import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../core/tenancy';
import { viewOfWebhook, type Webhook } from '../../core/webhooks/webhook';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryListFilters,
  type DeliveryRepository,
  type DeliveryRestarts,
  keptAttempts,
} from '../../core/webhooks/delivery';
import type { TableRef } from './client';
import { putManyInCollections } from './batched-collection-writes';
import { putInCollection } from './collection-writes';
import {
  countRange,
  counterValue,
  createdKeyRange,
  createdRangeSpec,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
} from './list-page';
import { entityTypes, withoutKeys } from './keys';
import { queryAll } from './query-all';
import * as keys from './table-keys';
import { pendingEventItems } from './event-repository';
import { failedWebhookCountMove } from './failed-webhook-count';
import { conditionFailedAt, isConditionFailure, type TransactItem, withConflictRetry } from './transactions';
import { unchangedCondition, withCondition } from './unchanged-condition';
import { webhookReads } from './webhook-repository';

const deliveryFrom = (item: Record<string, unknown>): Delivery => {
  const d = withoutKeys<Delivery>(item);
  return {
    id: d.id,
    webhook_id: d.webhook_id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    test: d.test,
    sequence: d.sequence,
    attempt_count: d.attempt_count,
    attempt_claimed_at: d.attempt_claimed_at ?? null,
    // Attempts recorded before they kept their URL have none.
    attempts: (d.attempts ?? []).map((attempt) => ({ ...attempt, url: attempt.url ?? null })),
    next_attempt_at: d.next_attempt_at ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
    ...(d.payload === undefined ? {} : { payload: d.payload }),
  };
};

const filterOf = (filters: DeliveryListFilters): Record<string, Record<string, unknown>> => ({
  ...(filters.status ? { '#status = :status': { ':status': filters.status } } : {}),
  ...(filters.event_type ? { 'event_type = :eventType': { ':eventType': filters.event_type } } : {}),
});

/** One delivery of a webhook by id, alone: what `GET /v1/webhooks/{id}/deliveries/{delivery_id}` reads. */
export const dynamoDeliveryReader = ({ client, tableName }: TableRef): Pick<DeliveryRepository, 'get'> => ({
  async get(tenant, webhookId, id) {
    const result = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.delivery(tenant, webhookId, id), ConsistentRead: true }),
    );
    return result.Item ? deliveryFrom(result.Item) : undefined;
  },
});

/**
 * `stranded` (core/webhooks/delivery.ts) as a filter: pending, its attempt due before `:cutoff`,
 * and no attempt claimed since then. Stored times are ISO strings of one length: they sort as text.
 */
const strandedFilter =
  '#status = :pending AND next_attempt_at < :cutoff AND ' +
  '(attribute_not_exists(attempt_claimed_at) OR attribute_type(attempt_claimed_at, :nullType) OR attempt_claimed_at < :cutoff)';

/**
 * One delivery read, the deliveries of a webhook since a time, and a restart: what redelivering and
 * recovering use. Apart from the rest so that those functions carry no list paging or attempt writes.
 */
export const dynamoDeliveryRestarts = (table: TableRef): DeliveryRestarts => {
  const { client, tableName } = table;

  return {
    ...dynamoDeliveryReader(table),

    async findSince(tenant, webhookId, statuses, sinceMs, atMost, strandedBefore) {
      const { low, high } = createdKeyRange(keys.deliverySortKeyPrefix, 'delivery', {
        page: 1,
        perPage: 1,
        sort: 'created_at',
        order: 'asc',
        createdFrom: sinceMs,
      });
      const items = await queryAll(
        table,
        {
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
          // A test delivery is never sent again: not one of those found.
          FilterExpression:
            `(#status IN (${statuses.map((_, i) => `:s${i}`).join(', ')})${strandedBefore === undefined ? '' : ` OR (${strandedFilter})`})` +
            ' AND (attribute_not_exists(#test) OR #test = :false)',
          ExpressionAttributeNames: { '#status': 'status', '#test': 'test' },
          ExpressionAttributeValues: {
            ':pk': keys.deliveries(tenant, webhookId),
            ':low': low,
            ':high': high,
            ':false': false,
            ...Object.fromEntries(statuses.map((s, i) => [`:s${i}`, s])),
            ...(strandedBefore === undefined ? {} : { ':pending': 'pending', ':cutoff': strandedBefore, ':nullType': 'NULL' }),
          },
        },
        atMost,
      );
      return items.map(deliveryFrom);
    },

    async restart(tenant, webhookId, from, at, strandedBefore) {
      try {
        const result = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(tenant, webhookId, from.id),
            UpdateExpression:
              'SET #status = :pending, #sequence = :next, attempt_count = :zero, attempt_claimed_at = :null, next_attempt_at = :at, updated_at = :at, attempts = :kept',
            // Attempts are appended only while pending: not pending in this sequence, `from.attempts` is all
            // of them. Pending and waiting for a retry (or stranded): only while no attempt was claimed or
            // recorded since; one whose first attempt is queued, only when that was due before the cutoff.
            ConditionExpression:
              from.status === 'pending'
                ? 'attribute_exists(pk) AND #sequence = :from AND #status = :pending AND attempt_count = :claimed AND size(attempts) = :recorded' +
                  (strandedBefore === undefined
                    ? ' AND attempt_count > :zero'
                    : ' AND (attempt_count > :zero OR next_attempt_at < :cutoff)')
                : 'attribute_exists(pk) AND #sequence = :from AND #status <> :pending',
            ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
            ExpressionAttributeValues: {
              ':pending': 'pending',
              ':from': from.sequence,
              ...(from.status === 'pending' ? { ':claimed': from.attempt_count, ':recorded': from.attempts.length } : {}),
              ...(from.status === 'pending' && strandedBefore !== undefined ? { ':cutoff': strandedBefore } : {}),
              ':next': from.sequence + 1,
              ':zero': 0,
              ':null': null,
              ':at': at,
              ':kept': from.attempts.slice(-keptAttempts),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return deliveryFrom(result.Attributes as Record<string, unknown>);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        return (await dynamoDeliveryReader(table).get(tenant, webhookId, from.id)) ? 'changed' : 'not_found';
      }
    },
  };
};

const itemOf = (tenant: Tenant, delivery: Delivery) => ({
  ...keys.delivery(tenant, delivery.webhook_id, delivery.id),
  entity: entityTypes.delivery,
  ...delivery,
});

/** Writing one new delivery, alone: what a test delivery records. */
export const dynamoDeliveryCreation = (table: TableRef): Pick<DeliveryRepository, 'create'> => ({
  create: (tenant, delivery) => putInCollection(table, itemOf(tenant, delivery), keys.deliveries(tenant, delivery.webhook_id)),
});

/** A webhook's deliveries by creation, filtered by status and event type. */
const range = (
  tenant: Tenant,
  webhookId: string,
  query: Parameters<DeliveryRepository['list']>[2],
  filters: DeliveryListFilters,
): RangeSpec =>
  createdRangeSpec(keys.deliveries(tenant, webhookId), keys.deliverySortKeyPrefix, 'delivery', query, filterOf(filters), {
    '#status': 'status',
  });

/** A webhook's deliveries, alone: what `GET /v1/webhooks/{id}/deliveries` reads beside the webhook. */
export const dynamoDeliveryList = (table: TableRef): Pick<DeliveryRepository, 'list'> => ({
  async list(tenant, webhookId, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const spec = range(tenant, webhookId, query, filters);
    const filtered = isDateFiltered(query) || filters.status !== undefined || filters.event_type !== undefined;
    const total = filtered ? await countRange(table, spec) : await counterValue(table, keys.deliveries(tenant, webhookId));
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, { ...filters });
    return { ...page, items: page.items.map(deliveryFrom) };
  },
});

export const dynamoDeliveryRepository = (table: TableRef): DeliveryRepository => {
  const { client, tableName } = table;
  const restarts = dynamoDeliveryRestarts(table);

  /** The claim's write; the delivery as claimed, or undefined when its condition failed. */
  const claim = async (tenant: Tenant, webhookId: string, id: string, sequence: number, attempt: number, at: string) => {
    try {
      const result = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.delivery(tenant, webhookId, id),
          UpdateExpression: 'SET attempt_count = :attempt, attempt_claimed_at = :at, updated_at = :at',
          ConditionExpression: '#status = :pending AND #sequence = :sequence AND attempt_count = :previous',
          ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
          ExpressionAttributeValues: {
            ':attempt': attempt,
            ':previous': attempt - 1,
            ':at': at,
            ':pending': 'pending',
            ':sequence': sequence,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? deliveryFrom(result.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  };

  return {
    ...restarts,

    ...dynamoDeliveryCreation(table),

    createMany: (tenant, deliveries, onWritten) =>
      putManyInCollections(
        table,
        deliveries.map((delivery) => ({ item: itemOf(tenant, delivery), collection: keys.deliveries(tenant, delivery.webhook_id) })),
        onWritten,
      ),

    ...dynamoDeliveryList(table),

    claim,

    claimAttempt: async (tenant, webhookId, id, sequence, attempt, at) =>
      (await claim(tenant, webhookId, id, sequence, attempt, at)) !== undefined,

    async recordAttempt(tenant, webhookId, id, attempt, outcome, at) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(tenant, webhookId, id),
            UpdateExpression:
              'SET attempts = list_append(attempts, :attempt), #status = :status, next_attempt_at = :next, updated_at = :at',
            ConditionExpression: '#sequence = :sequence',
            ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
            ExpressionAttributeValues: {
              ':attempt': [attempt],
              ':status': outcome.status,
              ':next': outcome.next_attempt_at,
              ':at': at,
              ':sequence': attempt.sequence,
            },
          }),
        );
      } catch (error) {
        // A redelivery started a new sequence meanwhile: this result belongs to the old one.
        if (!isConditionFailure(error)) throw error;
      }
    },

    async failWithWebhook(tenant, webhookId, id, attempt: DeliveryAttempt, at, failed) {
      const failure: TransactItem = {
        Update: {
          TableName: tableName,
          Key: keys.delivery(tenant, webhookId, id),
          UpdateExpression: 'SET attempts = list_append(attempts, :attempt), #status = :failed, next_attempt_at = :null, updated_at = :at',
          ConditionExpression: '#sequence = :sequence',
          ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
          ExpressionAttributeValues: {
            ':attempt': [attempt],
            ':failed': 'failed',
            ':null': null,
            ':at': at,
            ':sequence': attempt.sequence,
          },
        },
      };
      const key = keys.webhook(tenant, webhookId);
      for (let round = 0; round < 4; round += 1) {
        // Read as it is now: the move's event tells the webhook as the move stores it, so the move is
        // made only over the webhook as read (a change meanwhile, a new URL say, is read again).
        const webhook = await webhookReads(table).get(tenant, webhookId, { consistent: true });
        if (!webhook) throw new Error(`webhook ${webhookId} of delivery ${id} does not exist`);
        const moves = webhook.status !== 'failed';
        const moved: Webhook = { ...webhook, status: 'failed', failed_at: at, updated_at: at };
        const items: TransactItem[] = moves
          ? [
              failure,
              {
                Update: {
                  TableName: tableName,
                  Key: key,
                  ...withCondition(
                    {
                      UpdateExpression: 'SET #status = :failed, failed_at = :at, updated_at = :at',
                      ConditionExpression: 'attribute_exists(pk)',
                      ExpressionAttributeNames: { '#status': 'status' },
                      ExpressionAttributeValues: { ':failed': 'failed', ':at': at },
                    },
                    unchangedCondition({ ...viewOfWebhook(webhook) }),
                  ),
                },
              },
              // The move adds one to the failed count and writes its event.
              failedWebhookCountMove(tableName, tenant, 1),
              ...(pendingEventItems(tableName, tenant, [failed(moved)], Date.parse(at)) as TransactItem[]),
            ]
          : [
              failure,
              // Failed already (another delivery gave up first): left as it is, on that condition.
              {
                ConditionCheck: {
                  TableName: tableName,
                  Key: key,
                  ConditionExpression: '#status = :failed',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':failed': 'failed' },
                },
              },
            ];
        try {
          await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
          return moves;
        } catch (error) {
          // Changed, re-enabled, failed or gone meanwhile: read it again, a few times.
          if (!conditionFailedAt(error, 1)) throw error;
        }
      }
      throw new Error(`webhook ${webhookId} kept changing while delivery ${id} failed it`);
    },

    async abandon(tenant, webhookId, id, attempt, at) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.delivery(tenant, webhookId, id),
            UpdateExpression:
              'SET attempt_count = :attempt, attempt_claimed_at = :at, attempts = list_append(attempts, :record), #status = :failed, next_attempt_at = :null, updated_at = :at',
            ConditionExpression: '#status = :pending AND #sequence = :sequence AND attempt_count = :previous',
            ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
            ExpressionAttributeValues: {
              ':attempt': attempt.number,
              ':previous': attempt.number - 1,
              ':record': [attempt],
              ':failed': 'failed',
              ':pending': 'pending',
              ':sequence': attempt.sequence,
              ':null': null,
              ':at': at,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async setStatus(tenant, webhookId, id, status, at) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.delivery(tenant, webhookId, id),
          UpdateExpression: 'SET #status = :status, next_attempt_at = :null, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':null': null, ':at': at },
        }),
      );
    },
  };
};
