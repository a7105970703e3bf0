import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../../../core/tenancy';
import type { TableRef } from '../client';
import { failedWebhookCountKey } from '../failed-webhook-count';
import { entityTypes } from '../keys';
import * as keys from '../table-keys';
import type { TransactItem } from '../transactions';
import { tenantOfKey } from './tenant-of-key';

export interface RecountReport {
  /** Account modes that have webhooks. */
  tenants: number;
  /** Their failed webhooks, now the counters' sum. */
  failed: number;
}

/** A transaction names at most 100 items: the counter and up to 99 webhooks it checks. */
const checkedWebhooksAtMost = 99;
const attemptsPerTenant = 5;

const webhookStatuses = async ({ client, tableName }: TableRef, tenant: Tenant) => {
  const found: Array<{ sk: string; status: string }> = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :webhook)',
        ExpressionAttributeValues: { ':pk': keys.webhooks(tenant), ':webhook': keys.webhookSortKeyPrefix },
        ProjectionExpression: 'sk, #status',
        ExpressionAttributeNames: { '#status': 'status' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) found.push({ sk: String(item.sk), status: String(item.status) });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
};

/**
 * Sets one tenant's counter to the number of its failed webhooks, in a transaction that also
 * checks every webhook still has the status counted: a webhook failing, re-enabled or deleted
 * meanwhile cancels it, and it counts again. Beyond 99 webhooks the count is written unchecked.
 */
const recountTenant = async (table: TableRef, tenant: Tenant): Promise<number> => {
  for (let attempt = 1; ; attempt += 1) {
    const webhooks = await webhookStatuses(table, tenant);
    const failed = webhooks.filter((webhook) => webhook.status === 'failed').length;
    const checks: TransactItem[] =
      webhooks.length > checkedWebhooksAtMost
        ? []
        : webhooks.map(({ sk, status }) => ({
            ConditionCheck: {
              TableName: table.tableName,
              Key: { pk: keys.webhooks(tenant), sk },
              ConditionExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':status': status },
            },
          }));
    const put: TransactItem = {
      Put: { TableName: table.tableName, Item: { ...failedWebhookCountKey(tenant), entity: entityTypes.counter, count: failed } },
    };
    try {
      await table.client.send(new TransactWriteCommand({ TransactItems: [put, ...checks] }));
      return failed;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) || attempt >= attemptsPerTenant) throw error;
    }
  }
};

/**
 * One-off and idempotent: sets every account mode's failed-webhook counter (the dashboard's badge)
 * from its webhooks, for webhooks that failed before the counter was kept. Running it again
 * counts the same; running it beside deliveries is safe (see `recountTenant`).
 */
export const recountFailedWebhooks = async (table: TableRef): Promise<RecountReport> => {
  const partitions = new Set<string>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'entity = :webhook',
        ExpressionAttributeValues: { ':webhook': entityTypes.webhook },
        ProjectionExpression: 'pk',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) partitions.add(String(item.pk));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const report: RecountReport = { tenants: 0, failed: 0 };
  for (const partition of partitions) {
    const tenant = tenantOfKey(partition);
    if (!tenant) continue;
    report.tenants += 1;
    report.failed += await recountTenant(table, tenant);
  }
  return report;
};
