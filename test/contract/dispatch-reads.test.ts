import { dynamoReadTogether } from '../../functions/adapters/dynamodb/dispatch-reads';
import { dynamoEventRepository } from '../../functions/adapters/dynamodb/event-repository';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import { newEvent, type ServiceEvent } from '../../functions/core/events/event';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { ReadTogether } from '../../functions/core/webhooks/batch-reads';
import type { Webhook } from '../../functions/core/webhooks/webhook';
import { inMemoryEvents, inMemoryWebhooks, readTogetherOf } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

interface Store {
  addWebhook(tenant: Tenant, webhook: Webhook): Promise<void>;
  addEvent(tenant: Tenant, event: ServiceEvent): Promise<void>;
  readTogether: ReadTogether;
}

const implementations: Array<[string, () => Promise<Store>]> = [
  [
    'the in-memory fakes',
    async () => {
      const webhooks = inMemoryWebhooks();
      const events = inMemoryEvents();
      return {
        addWebhook: (tenant, webhook) => webhooks.create(tenant, webhook),
        addEvent: (tenant, event) => events.record(tenant, event),
        readTogether: readTogetherOf({ webhooks, events }),
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const webhooks = dynamoWebhookRepository(table);
      const events = dynamoEventRepository(table);
      return {
        addWebhook: (tenant, webhook) => webhooks.create(tenant, webhook),
        addEvent: (tenant, event) => events.record(tenant, event),
        readTogether: dynamoReadTogether(table),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const otherMode: Tenant = { ...tenant, mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');

const webhook = (minute: number): Webhook => ({
  id: newId('webhook', start + minute * 60_000),
  url: `https://hooks.example.com/${minute}`,
  events: ['*'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: new Date(start + minute * 60_000).toISOString(),
  updated_at: new Date(start + minute * 60_000).toISOString(),
  failed_at: null,
  secret: `whsec_${minute}`,
  previous_secret: null,
  previous_secret_expires_at: null,
});

const event = (minute: number): ServiceEvent =>
  newEvent('workflow.completed', { workflow_id: `wf_${minute}`, project_id: 'prj_1', status: 'succeeded' }, start + minute * 60_000);

describe.each(implementations)('Reading webhooks and events together: %s', (_name, make) => {
  let store: Store;
  beforeEach(async () => {
    store = await make();
  });

  it('answers each in the order asked, repeats included, undefined where none is in that account and mode', async () => {
    const [a, b] = [webhook(0), webhook(1)];
    const [x, y] = [event(2), event(3)];
    await store.addWebhook(tenant, a);
    await store.addWebhook(otherMode, b);
    await store.addEvent(tenant, x);
    await store.addEvent(otherMode, y);

    expect(
      await store.readTogether({
        webhooks: [
          { tenant: otherMode, id: b.id },
          { tenant, id: a.id },
          { tenant, id: b.id },
          { tenant: otherMode, id: b.id },
        ],
        events: [
          { tenant, id: x.id },
          { tenant, id: y.id },
          { tenant: otherMode, id: y.id },
          { tenant, id: x.id },
        ],
      }),
    ).toEqual({ webhooks: [b, a, undefined, b], events: [x, undefined, y, x] });
    expect(await store.readTogether({ webhooks: [], events: [] })).toEqual({ webhooks: [], events: [] });
  });

  it('reads more than one call of the store holds (BatchGetItem takes 100 keys)', async () => {
    const webhooks = Array.from({ length: 60 }, (_, i) => webhook(i));
    const events = Array.from({ length: 60 }, (_, i) => event(i));
    for (const w of webhooks) await store.addWebhook(tenant, w);
    for (const e of events) await store.addEvent(tenant, e);

    const found = await store.readTogether({
      webhooks: webhooks.map((w) => ({ tenant, id: w.id })),
      events: events.map((e) => ({ tenant, id: e.id })),
    });
    expect(found).toEqual({ webhooks, events });
  });
});
