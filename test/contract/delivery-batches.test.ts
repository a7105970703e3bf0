import { dynamoDeliveryRepository } from '../../functions/adapters/dynamodb/delivery-repository';
import { isoTime } from '../../functions/core/clock';
import { newEvent } from '../../functions/core/events/event';
import type { Tenant } from '../../functions/core/tenancy';
import type { Delivery, DeliveryRepository } from '../../functions/core/webhooks/delivery';
import { newDelivery } from '../../functions/core/webhooks/fan-out';
import { deliveryAt, inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A DeliveryRepository and how many deliveries a webhook's collection counts. */
interface Subject {
  deliveries: DeliveryRepository;
  counted(webhookId: string): Promise<number>;
}

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const deliveries = inMemoryDeliveries(inMemoryWebhooks());
      const created: Delivery[] = [];
      return {
        deliveries: {
          ...deliveries,
          async createMany(t, batch, onWritten) {
            const results = await deliveries.createMany(t, batch, onWritten);
            batch.forEach((delivery, i) => results[i] && created.push(delivery));
            return results;
          },
        },
        async counted(webhookId) {
          return created.filter((delivery) => delivery.webhook_id === webhookId).length;
        },
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const deliveries = dynamoDeliveryRepository(table);
      return {
        deliveries,
        async counted(webhookId) {
          const page = await deliveries.list(tenant, webhookId, { page: 1, perPage: 1, sort: 'created_at', order: 'asc' }, {});
          return page.total;
        },
      };
    },
  ],
];

/** `count` deliveries to each webhook, one per event, as the fan-out makes them. */
const deliveriesFor = (webhookIds: readonly string[], count: number, firstEvent = 0): Delivery[] =>
  Array.from({ length: count }, (_, n) =>
    newEvent('deployment.completed', { id: `dep_${firstEvent + n}` }, start + firstEvent + n),
  ).flatMap((event) => webhookIds.map((id) => newDelivery({ ...webhookAt(start), id }, event, 'pending', start + 60_000)));

describe.each(implementations)('DeliveryRepository: %s', (_name, make) => {
  it('creates many deliveries across webhooks, each once, and counts each in its webhook', async () => {
    const subject = await make();
    // More than one transaction holds, over three webhooks.
    const batch = deliveriesFor(['wh_a', 'wh_b', 'wh_c'], 90);
    expect(await subject.deliveries.createMany(tenant, batch)).toEqual(batch.map(() => true));
    for (const delivery of [batch[0], batch[150], batch[269]] as Delivery[]) {
      expect(await subject.deliveries.get(tenant, delivery.webhook_id, delivery.id)).toEqual(delivery);
    }
    expect([await subject.counted('wh_a'), await subject.counted('wh_b'), await subject.counted('wh_c')]).toEqual([90, 90, 90]);
  });

  it('run again with some deliveries new, creates and counts only those', async () => {
    const subject = await make();
    const first = deliveriesFor(['wh_a', 'wh_b'], 10);
    await subject.deliveries.createMany(tenant, first);
    const again = [...first.slice(5, 12), ...deliveriesFor(['wh_a', 'wh_b'], 4, 10)];
    expect(await subject.deliveries.createMany(tenant, again)).toEqual([
      ...again.slice(0, 7).map(() => false),
      ...again.slice(7).map(() => true),
    ]);
    expect([await subject.counted('wh_a'), await subject.counted('wh_b')]).toEqual([14, 14]);
  });

  it('reports each write as it is done: every delivery created, once, stored by then; none that existed', async () => {
    const subject = await make();
    const first = deliveriesFor(['wh_a', 'wh_b'], 10);
    await subject.deliveries.createMany(tenant, first);
    // More than one transaction holds, some of them existing already.
    const again = [...first.slice(5, 12), ...deliveriesFor(['wh_a', 'wh_b', 'wh_c'], 60, 10)];
    const reported: number[] = [];
    const storedWhenReported: boolean[] = [];
    const created = await subject.deliveries.createMany(tenant, again, async (indexes) => {
      const last = again[indexes.at(-1) ?? -1];
      if (last) storedWhenReported.push((await subject.deliveries.get(tenant, last.webhook_id, last.id)) !== undefined);
      reported.push(...indexes);
    });
    expect(created.filter(Boolean)).toHaveLength(180);
    expect(reported.sort((a, b) => a - b)).toEqual(created.flatMap((ok, i) => (ok ? [i] : [])));
    expect(storedWhenReported.every(Boolean)).toBe(true);
  });

  it('claims the next attempt once, answering the delivery as claimed', async () => {
    const subject = await make();
    const delivery = deliveryAt(start);
    await subject.deliveries.createMany(tenant, [delivery]);
    const at = isoTime(start + 1_000);
    expect(await subject.deliveries.claim(tenant, delivery.webhook_id, delivery.id, 1, 1, at)).toEqual({
      ...delivery,
      attempt_count: 1,
      attempt_claimed_at: at,
      updated_at: at,
    });
    expect(await subject.deliveries.claim(tenant, delivery.webhook_id, delivery.id, 1, 1, at)).toBeUndefined();
    expect(await subject.deliveries.claim(tenant, delivery.webhook_id, delivery.id, 2, 2, at)).toBeUndefined();
    expect(await subject.deliveries.claim(tenant, delivery.webhook_id, 'dlv_missing', 1, 1, at)).toBeUndefined();
  });
});
