import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { dynamoDeletedWebhookDeliveries } from '../../functions/adapters/dynamodb/deleted-webhook-deliveries';
import { dynamoDeliveryRepository } from '../../functions/adapters/dynamodb/delivery-repository';
import * as keys from '../../functions/adapters/dynamodb/table-keys';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { DeletedWebhookDeliveries, Delivery, DeliveryRepository } from '../../functions/core/webhooks/delivery';
import type { Webhook, WebhookRepository } from '../../functions/core/webhooks/webhook';
import { inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

interface Subject {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  removal: DeletedWebhookDeliveries;
  /** Every item left in a webhook's delivery partition, its counter included (where the store keeps one). */
  leftIn?: (tenant: Tenant, webhookId: string) => Promise<number>;
}

const itemsIn = (table: TableRef) => async (tenant: Tenant, webhookId: string) =>
  (
    await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.deliveries(tenant, webhookId) },
        ConsistentRead: true,
      }),
    )
  ).Count ?? 0;

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const webhooks = inMemoryWebhooks();
      const deliveries = inMemoryDeliveries(webhooks);
      return { webhooks, deliveries, removal: deliveries };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        webhooks: dynamoWebhookRepository(table),
        deliveries: dynamoDeliveryRepository(table),
        removal: dynamoDeletedWebhookDeliveries(table),
        leftIn: itemsIn(table),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (second: number): string => new Date(start + second * 1_000).toISOString();

const webhookOf = (id: string): Webhook => ({ ...webhookAt(start - 60_000), id });

const deliveriesOf = (webhookId: string, count: number): Delivery[] =>
  Array.from({ length: count }, (_, i) => ({
    id: newId('delivery', start + i * 1_000),
    webhook_id: webhookId,
    event_id: newId('event', start + i * 1_000),
    event_type: 'workflow.completed',
    status: i % 3 === 0 ? 'failed' : 'succeeded',
    test: false,
    sequence: 1,
    attempt_count: 1,
    attempt_claimed_at: at(i),
    attempts: [],
    next_attempt_at: null,
    created_at: at(i),
    updated_at: at(i),
  }));

const totalOf = async (deliveries: DeliveryRepository, t: Tenant, webhookId: string): Promise<number> =>
  (await deliveries.list(t, webhookId, { page: 1, perPage: 1, sort: 'created_at', order: 'desc' }, {})).total;

describe.each(implementations)('DeletedWebhookDeliveries: %s', (_name, make) => {
  const deleted = webhookOf(newId('webhook', start - 120_000));
  const kept = webhookOf(newId('webhook', start - 60_000));
  const otherMode: Tenant = { ...tenant, mode: 'test' };
  let subject: Subject;

  beforeEach(async () => {
    subject = await make();
    for (const [t, webhook] of [
      [tenant, deleted],
      [tenant, kept],
      [otherMode, deleted],
    ] as const) {
      await subject.webhooks.create(t, webhook);
    }
    // More than two transactions' worth: the removal goes on until the partition is empty.
    await subject.deliveries.createMany(tenant, deliveriesOf(deleted.id, 230));
    await subject.deliveries.createMany(tenant, deliveriesOf(kept.id, 3));
    await subject.deliveries.createMany(otherMode, deliveriesOf(deleted.id, 2));
  });

  it('removes nothing of a webhook that exists', async () => {
    expect(await subject.removal.removeAll(tenant, deleted.id)).toBe('webhook_exists');
    expect(await totalOf(subject.deliveries, tenant, deleted.id)).toBe(230);
  });

  it("removes every delivery of a deleted webhook and its count, and nothing of another webhook's or another mode's", async () => {
    const [first] = deliveriesOf(deleted.id, 1);
    await subject.webhooks.delete(tenant, deleted.id);

    expect(await subject.removal.removeAll(tenant, deleted.id)).toBe(230);
    expect(await subject.deliveries.get(tenant, deleted.id, first!.id)).toBeUndefined();
    expect(await totalOf(subject.deliveries, tenant, deleted.id)).toBe(0);
    expect(await subject.leftIn?.(tenant, deleted.id)).toBe(subject.leftIn ? 0 : undefined);
    expect(await totalOf(subject.deliveries, tenant, kept.id)).toBe(3);
    expect(await totalOf(subject.deliveries, otherMode, deleted.id)).toBe(2);
    // Again: nothing left to remove.
    expect(await subject.removal.removeAll(tenant, deleted.id)).toBe(0);
  });

  it('removes them all when two removals run at once', async () => {
    await subject.webhooks.delete(tenant, deleted.id);
    const counts = await Promise.all([subject.removal.removeAll(tenant, deleted.id), subject.removal.removeAll(tenant, deleted.id)]);
    expect(counts.every((count) => typeof count === 'number')).toBe(true);
    expect(await totalOf(subject.deliveries, tenant, deleted.id)).toBe(0);
    expect(await subject.leftIn?.(tenant, deleted.id)).toBe(subject.leftIn ? 0 : undefined);
  });
});
