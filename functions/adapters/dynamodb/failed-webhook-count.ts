import type { Tenant } from '../../core/tenancy';
import { entityTypes } from './keys';
import * as keys from './table-keys';
import type { TransactItem } from './transactions';

/**
 * The number of a tenant's failed webhooks, kept in a counter item so the dashboard reads it with
 * the session in one batch. Every write that moves a webhook into `failed` adds one in the same
 * transaction; every write that moves one out of it (re-enable, delete) takes one away, on the
 * condition that the count stays at zero or above.
 */
export const failedWebhookCountKey = (tenant: Tenant) => keys.counter(keys.failedWebhooks(tenant));

export const failedWebhookCountMove = (tableName: string, tenant: Tenant, by: 1 | -1): TransactItem => ({
  Update: {
    TableName: tableName,
    Key: failedWebhookCountKey(tenant),
    UpdateExpression: 'ADD #count :by SET entity = :entity',
    ...(by < 0 ? { ConditionExpression: '#count >= :one' } : {}),
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':by': by, ':entity': entityTypes.counter, ...(by < 0 ? { ':one': 1 } : {}) },
  },
});

export const failedWebhookCountOf = (item: Record<string, unknown> | undefined): number => Math.max(0, Number(item?.count ?? 0));
