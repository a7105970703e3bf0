import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { failedWebhookCountKey } from '../../functions/adapters/dynamodb/failed-webhook-count';
import { recountFailedWebhooks } from '../../functions/adapters/dynamodb/migrations/failed-webhook-count';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import type { Webhook } from '../../functions/core/webhooks/webhook';
import type { Tenant } from '../../functions/core/tenancy';
import { webhookAt } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();
const tenant: Tenant = { accountId: 'acct_recount', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (n: number) => new Date(start + n * 1_000).toISOString();
const webhook = (n: number, changes: Partial<Webhook> = {}): Webhook => ({ ...webhookAt(start + n * 1_000), id: `wh_${n}`, ...changes });

describe("the recount of failed webhooks (the dashboard's badge)", () => {
  it('counts webhooks that failed before the counter was kept, per account mode, and counts the same when run again', async () => {
    const table = await dynamodb.freshTable();
    const webhooks = dynamoWebhookRepository(table);
    for (const created of [
      webhook(0),
      webhook(1, { status: 'failed', failed_at: at(1) }),
      webhook(2, { status: 'failed', failed_at: at(2) }),
    ])
      await webhooks.create(tenant, created);
    await webhooks.create(otherMode, webhook(3, { status: 'failed', failed_at: at(3) }));
    // As stored before the counter existed: failed webhooks and no count.
    for (const stale of [tenant, otherMode])
      await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: failedWebhookCountKey(stale) }));
    expect(await webhooks.failedCount(tenant)).toBe(0);

    expect(await recountFailedWebhooks(table)).toEqual({ tenants: 2, failed: 3 });
    expect([await webhooks.failedCount(tenant), await webhooks.failedCount(otherMode)]).toEqual([2, 1]);
    expect(await recountFailedWebhooks(table)).toEqual({ tenants: 2, failed: 3 });
    expect(await webhooks.failedCount(tenant)).toBe(2);

    // From then on the count moves with the webhooks: re-enabling both leaves none.
    for (const id of ['wh_1', 'wh_2']) await webhooks.update(tenant, id, { status: 'enabled', failed_at: null }, at(9));
    expect(await webhooks.failedCount(tenant)).toBe(0);
  });
});
