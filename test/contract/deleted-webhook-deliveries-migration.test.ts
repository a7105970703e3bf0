import { dynamoDeliveryRepository } from '../../functions/adapters/dynamodb/delivery-repository';
import { removeDeliveriesOfDeletedWebhooks } from '../../functions/adapters/dynamodb/migrations/deleted-webhook-deliveries';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import { tableQueueStore } from '../../functions/adapters/queue/table-delivery-queue';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { Delivery } from '../../functions/core/webhooks/delivery';
import { deliveryAt, webhookAt } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();
const tenant: Tenant = { accountId: 'acct_sweep', mode: 'live' };
const otherAccount: Tenant = { accountId: 'acct_other', mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');

const deliveriesOf = (webhookId: string, count: number): Delivery[] =>
  Array.from({ length: count }, (_, i) => ({
    ...deliveryAt(start + i * 1_000),
    id: newId('delivery', start + i * 1_000),
    webhook_id: webhookId,
  }));

const totalOf = async (deliveries: ReturnType<typeof dynamoDeliveryRepository>, t: Tenant, webhookId: string) =>
  (await deliveries.list(t, webhookId, { page: 1, perPage: 1, sort: 'created_at', order: 'desc' }, {})).total;

describe('the removal of deliveries left by webhooks deleted before deletion took them along', () => {
  it("removes every deleted webhook's deliveries and count, keeps those of webhooks that exist and the queue's messages, and removes nothing when run again", async () => {
    const table = await dynamodb.freshTable();
    const webhooks = dynamoWebhookRepository(table);
    const deliveries = dynamoDeliveryRepository(table);
    const kept = { ...webhookAt(start), id: 'wh_kept' };
    const gone = { ...webhookAt(start), id: 'wh_gone' };
    await webhooks.create(tenant, kept);
    await webhooks.create(tenant, gone);
    await webhooks.create(otherAccount, gone);
    await deliveries.createMany(tenant, deliveriesOf(kept.id, 4));
    await deliveries.createMany(tenant, deliveriesOf(gone.id, 120));
    await deliveries.createMany(otherAccount, deliveriesOf(gone.id, 2));
    // As deleted before this: the webhook's item alone.
    await webhooks.delete(tenant, gone.id);
    await webhooks.delete(otherAccount, gone.id);
    // The local runtime's queue keeps its messages in the same table, under keys of its own.
    const queue = tableQueueStore(table);
    const message = {
      account_id: tenant.accountId,
      mode: tenant.mode,
      webhook_id: gone.id,
      delivery_id: 'dlv_1',
      sequence: 1,
      attempt: 1,
      not_before: start,
    };
    await queue.put([{ id: 'msg_1', message }]);

    expect(await removeDeliveriesOfDeletedWebhooks(table)).toEqual({ webhooks: 3, deleted: 2, removed: 122 });
    expect(await totalOf(deliveries, tenant, gone.id)).toBe(0);
    expect(await totalOf(deliveries, otherAccount, gone.id)).toBe(0);
    expect(await totalOf(deliveries, tenant, kept.id)).toBe(4);
    expect(await queue.load()).toEqual([{ id: 'msg_1', message }]);

    expect(await removeDeliveriesOfDeletedWebhooks(table)).toEqual({ webhooks: 1, deleted: 0, removed: 0 });
  });
});
