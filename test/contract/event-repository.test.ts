import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  dynamoEventList,
  dynamoEventReader,
  dynamoEventRepository,
  pendingEventItems,
} from '../../functions/adapters/dynamodb/event-repository';
import { type EventRepository, newEvent, type ServiceEvent } from '../../functions/core/events/event';
import type { EventType } from '../../functions/core/events/event-types';
import type { Tenant } from '../../functions/core/tenancy';
import { byCreation } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/**
 * An EventRepository and the way an event comes to be stored (the other repositories write them
 * with their changes). The events use cases are tried with a stub of their own and through HTTP,
 * so no in-memory fake exists yet; one that is written joins this list.
 */
interface Subject {
  events: EventRepository;
  store(tenant: Tenant, event: ServiceEvent): Promise<void>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const events = dynamoEventRepository(await dynamodb.freshTable());
      return { events, store: (tenant, event) => events.record(tenant, event) };
    },
  ],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const writer = dynamoEventRepository(table);
      return {
        events: { ...dynamoEventReader(table), ...dynamoEventList(table) },
        store: (tenant, event) => writer.record(tenant, event),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const seconds = (n: number): number => start + n * 1_000;

const kinds: EventType[] = ['workflow.created', 'security.scan.completed', 'workflow.created', 'workflow.completed', 'workflow.created'];

describe.each(implementations)('EventRepository: %s', (_name, make) => {
  let subject: Subject;
  let events: EventRepository;
  let stored: ServiceEvent[];
  beforeEach(async () => {
    subject = await make();
    events = subject.events;
    stored = kinds.map((type, i) => newEvent(type, { n: i }, seconds(i)));
    for (const event of stored) await subject.store(tenant, event);
  });
  const ids = (page: { items: ServiceEvent[] }) => page.items.map((e) => e.id);
  const idsOf = (...indexes: number[]) => indexes.map((i) => stored[i]!.id);

  it('gives back an event as stored, per account and mode', async () => {
    expect(await events.get(tenant, stored[1]!.id)).toEqual(stored[1]);
    expect(await events.get(otherMode, stored[1]!.id)).toBeUndefined();
  });

  it('lists by creation in either order, by type, paged, with the total and a created range', async () => {
    expect(ids(await events.list(tenant, byCreation(), {}))).toEqual(idsOf(0, 1, 2, 3, 4));
    expect(ids(await events.list(tenant, byCreation('desc'), {}))).toEqual(idsOf(4, 3, 2, 1, 0));
    expect(await events.list(otherMode, byCreation(), {})).toEqual({ items: [], total: 0 });
    const created = await events.list(tenant, byCreation('desc'), { type: 'workflow.created' });
    expect({ ids: ids(created), total: created.total }).toEqual({ ids: idsOf(4, 2, 0), total: 3 });
    const second = await events.list(tenant, byCreation('asc', { page: 2, perPage: 2 }), {});
    expect({ ids: ids(second), total: second.total }).toEqual({ ids: idsOf(2, 3), total: 5 });
    const ranged = await events.list(tenant, byCreation('asc', { createdFrom: seconds(1), createdUntil: seconds(3) }), {});
    expect({ ids: ids(ranged), total: ranged.total }).toEqual({ ids: idsOf(1, 2), total: 2 });
  });

  it('reads forward from an event: only later events, created before the settle time, oldest first', async () => {
    const after = (index: number, settledBeforeMs: number) => ({ after: { id: stored[index]!.id, settledBeforeMs } });
    const following = await events.list(tenant, byCreation(), after(1, seconds(10)));
    expect({ ids: ids(following), total: following.total }).toEqual({ ids: idsOf(2, 3, 4), total: 3 });
    expect(ids(await events.list(tenant, byCreation(), after(1, seconds(4))))).toEqual(idsOf(2, 3));
    expect(ids(await events.list(tenant, byCreation(), { type: 'workflow.created', ...after(0, seconds(10)) }))).toEqual(idsOf(2, 4));
    expect(await events.list(tenant, byCreation(), after(4, seconds(10)))).toEqual({ items: [], total: 0 });
    expect(ids(await events.list(tenant, byCreation('asc', { createdFrom: seconds(3) }), after(0, seconds(10))))).toEqual(idsOf(3, 4));
  });
});

describe('the outbox of a state change that causes several events, on DynamoDB Local', () => {
  it('records them in one transaction, each counter moved once by their number', async () => {
    const table = await dynamodb.freshTable();
    const events = dynamoEventRepository(table);
    const caused = [
      { type: 'workflow.stage.completed' as const, data: { stage: 'intake' } },
      { type: 'workflow.stage.completed' as const, data: { stage: 'build' } },
      { type: 'workflow.completed' as const, data: {} },
    ];
    await table.client.send(new TransactWriteCommand({ TransactItems: pendingEventItems(table.tableName, tenant, caused, start) }));

    const all = await events.list(tenant, byCreation(), {});
    expect(all.items.map((event) => event.type).sort()).toEqual([
      'workflow.completed',
      'workflow.stage.completed',
      'workflow.stage.completed',
    ]);
    expect(all.total).toBe(3);
    expect((await events.list(tenant, byCreation(), { type: 'workflow.stage.completed' })).total).toBe(2);
  });
});
