import { totalOnly } from '../../functions/core/pagination';
import {
  dynamoWebhookDeletion,
  dynamoWebhookList,
  dynamoWebhookRepository,
  webhookReads,
} from '../../functions/adapters/dynamodb/webhook-repository';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import { viewOfWebhook, type Webhook, type WebhookRepository } from '../../functions/core/webhooks/webhook';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { dynamoEventRepository } from '../../functions/adapters/dynamodb/event-repository';
import { inMemoryWebhooks } from '../unit/fakes/webhook-repositories';
import { byCreation } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<WebhookRepository>]> = [
  ['the in-memory fake', async () => inMemoryWebhooks()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoWebhookRepository(await dynamodb.freshTable())],
  [
    // What the read and delete functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers and deletion on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        ...dynamoWebhookRepository(table),
        ...webhookReads(table),
        ...dynamoWebhookList(table),
        ...dynamoWebhookDeletion(table),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const otherMode: Tenant = { ...tenant, mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minute: number): string => new Date(start + minute * 60_000).toISOString();

const webhook = (minute: number, overrides: Partial<Webhook> = {}): Webhook => ({
  id: newId('webhook', start + minute * 60_000),
  url: `https://hooks.example.com/${minute}`,
  events: ['workflow.completed', 'deployment.failed'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: at(minute),
  updated_at: at(minute),
  failed_at: null,
  secret: `whsec_${minute}`,
  previous_secret: null,
  previous_secret_expires_at: null,
  ...overrides,
});

describe.each(implementations)('WebhookRepository: %s', (_name, make) => {
  let webhooks: WebhookRepository;
  beforeEach(async () => {
    webhooks = await make();
  });

  it('gives back what it stored, per account and mode, and refuses a second create of the same id', async () => {
    const created = webhook(0, { description: 'Orders', events: ['*'] });
    await webhooks.create(tenant, created);
    expect(await webhooks.get(tenant, created.id)).toEqual(created);
    expect(await webhooks.get(otherMode, created.id)).toBeUndefined();
    await expect(webhooks.create(tenant, { ...created, url: 'https://hooks.example.com/other' })).rejects.toThrow();
    expect(await webhooks.get(tenant, created.id)).toEqual(created);
  });

  it("gives every webhook of the tenant, in id (creation) order, and no other tenant's", async () => {
    const [a, b, c] = [webhook(0), webhook(1), webhook(2)];
    for (const created of [c!, a!, b!]) await webhooks.create(tenant, created);
    await webhooks.create(otherMode, webhook(3));
    expect(await webhooks.all(tenant)).toEqual([a, b, c]);
  });

  it('lists by creation, filtered by status and created time, with the total, and pages', async () => {
    const [a, b, c] = [webhook(0), webhook(1, { status: 'failed', failed_at: at(5) }), webhook(2)];
    for (const created of [b!, c!, a!]) await webhooks.create(tenant, created);
    const all = await webhooks.list(tenant, byCreation('desc'), {});
    expect({ ids: all.items.map((w) => w.id), total: all.total }).toEqual({ ids: [c!.id, b!.id, a!.id], total: 3 });
    expect(all.items[1]).toEqual(b);
    const enabled = await webhooks.list(tenant, byCreation(), { status: 'enabled' });
    expect({ ids: enabled.items.map((w) => w.id), total: enabled.total }).toEqual({ ids: [a!.id, c!.id], total: 2 });
    const window = await webhooks.list(tenant, byCreation('asc', { createdFrom: start + 60_000, createdUntil: start + 120_000 }), {});
    expect({ ids: window.items.map((w) => w.id), total: window.total }).toEqual({ ids: [b!.id], total: 1 });
    const second = await webhooks.list(tenant, byCreation('asc', { page: 2, perPage: 2 }), {});
    expect({ ids: second.items.map((w) => w.id), total: second.total }).toEqual({ ids: [c!.id], total: 3 });
    expect((await webhooks.list(otherMode, byCreation(), {})).total).toBe(0);
  });

  it('answers the total alone, with no items, to a query of page size 0 (the failed-webhooks badge)', async () => {
    for (const created of [
      webhook(0),
      webhook(1, { status: 'failed', failed_at: at(5) }),
      webhook(2, { status: 'failed', failed_at: at(6) }),
    ]) {
      await webhooks.create(tenant, created);
    }
    expect(await webhooks.list(tenant, totalOnly('created_at'), { status: 'failed' })).toEqual({ items: [], total: 2 });
    expect(await webhooks.list(tenant, totalOnly('created_at'), {})).toEqual({ items: [], total: 3 });
    expect(await webhooks.list(otherMode, totalOnly('created_at'), { status: 'failed' })).toEqual({ items: [], total: 0 });
  });

  it('updates only the fields given, with the new update time; undefined for an unknown webhook', async () => {
    const created = webhook(0);
    await webhooks.create(tenant, created);
    const changed = { ...created, url: 'https://hooks.example.com/new', active: false, description: null, updated_at: at(9) };
    expect(await webhooks.update(tenant, created.id, { url: changed.url, active: false, events: undefined }, at(9))).toEqual(changed);
    expect(await webhooks.get(tenant, created.id)).toEqual(changed);
    expect(await webhooks.update(tenant, webhook(1).id, { active: false }, at(9))).toBeUndefined();
    expect(await webhooks.get(tenant, webhook(1).id)).toBeUndefined();
  });

  it('keeps the past subscriptions a change gives it, for every reader, given the webhook as read', async () => {
    const created = webhook(0);
    await webhooks.create(tenant, created);
    const past_subscriptions = [{ until: at(9), active: true, events: created.events }];
    const paused = await webhooks.update(tenant, created.id, { active: false, past_subscriptions }, at(9), created);
    expect(paused).toEqual({ ...created, active: false, updated_at: at(9), past_subscriptions });
    expect(await webhooks.get(tenant, created.id)).toEqual(paused);
    expect(await webhooks.all(tenant)).toEqual([paused]);
    expect(await webhooks.update(tenant, created.id, { active: true, past_subscriptions: [] }, at(10), created)).toBe('changed');
  });

  it('rotates the secret only while it is still the one read: of two rotations at once, one is stored and the other told', async () => {
    const created = webhook(0);
    await webhooks.create(tenant, created);
    const rotation = (secret: string) => ({ secret, previous_secret: created.secret, previous_secret_expires_at: at(24 * 60) });
    const answers = await Promise.all([
      webhooks.rotateSecret(tenant, created.id, created.secret, rotation('whsec_a'), at(1)),
      webhooks.rotateSecret(tenant, created.id, created.secret, rotation('whsec_b'), at(1)),
    ]);
    const stored = answers.filter((answer): answer is Webhook => typeof answer !== 'string');
    expect(stored).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'changed')).toHaveLength(1);
    const winner = stored[0] as Webhook;
    expect(winner).toEqual({ ...created, ...rotation(winner.secret), updated_at: at(1) });
    expect(await webhooks.get(tenant, created.id)).toEqual(winner);
    expect(await webhooks.rotateSecret(tenant, webhook(1).id, 'whsec_1', rotation('whsec_c'), at(2))).toBe('not_found');
    expect(await webhooks.rotateSecret(otherMode, created.id, winner.secret, rotation('whsec_c'), at(2))).toBe('not_found');
  });

  it('writes given the webhook as read only while it shows the same: changed, and nothing written, once another write came between', async () => {
    const created = webhook(0, { description: 'Orders' });
    await webhooks.create(tenant, created);
    const paused = await webhooks.update(tenant, created.id, { active: false }, at(1), created);
    expect(paused).toEqual({ ...created, active: false, updated_at: at(1) });
    expect(await webhooks.update(tenant, created.id, { url: 'https://hooks.example.com/lost' }, at(2), created)).toBe('changed');
    expect(await webhooks.delete(tenant, created.id, created)).toBe('changed');
    // A rotation changes what the webhook shows too (the old secret's end), so a tag read before it is stale.
    const rotated = await webhooks.rotateSecret(
      tenant,
      created.id,
      created.secret,
      { secret: 'whsec_new', previous_secret: created.secret, previous_secret_expires_at: at(60) },
      at(3),
    );
    expect(await webhooks.update(tenant, created.id, { active: true }, at(4), paused as Webhook)).toBe('changed');
    expect(await webhooks.get(tenant, created.id, { consistent: true })).toEqual(rotated);
    expect(await webhooks.delete(tenant, created.id, rotated as Webhook)).toBe(true);
    expect((await webhooks.list(tenant, byCreation(), {})).total).toBe(0);
    expect(await webhooks.update(tenant, created.id, { active: true }, at(5), created)).toBeUndefined();
    expect(await webhooks.delete(tenant, created.id, created)).toBe(false);
  });

  it('moves the failed count when a webhook read as failed is re-enabled or deleted given it', async () => {
    const [failed, other] = [webhook(0, { status: 'failed', failed_at: at(0) }), webhook(1, { status: 'failed', failed_at: at(1) })];
    for (const created of [failed, other]) await webhooks.create(tenant, created);
    expect(await webhooks.failedCount(tenant)).toBe(2);
    expect(await webhooks.update(tenant, failed.id, { status: 'enabled', failed_at: null, active: true }, at(2), failed)).toMatchObject({
      status: 'enabled',
      failed_at: null,
    });
    expect(await webhooks.failedCount(tenant)).toBe(1);
    expect(await webhooks.delete(tenant, other.id, other)).toBe(true);
    expect(await webhooks.failedCount(tenant)).toBe(0);
  });

  it('deletes a webhook once, and it leaves the collection', async () => {
    const [a, b] = [webhook(0), webhook(1)];
    for (const created of [a!, b!]) await webhooks.create(tenant, created);
    expect(await webhooks.delete(tenant, a!.id)).toBe(true);
    expect(await webhooks.delete(tenant, a!.id)).toBe(false);
    expect(await webhooks.get(tenant, a!.id)).toBeUndefined();
    expect(await webhooks.all(tenant)).toEqual([b]);
    expect((await webhooks.list(tenant, byCreation(), {})).total).toBe(1);
  });

  it('counts the failed webhooks as they fail, are re-enabled and are deleted, once each and never below zero', async () => {
    const [a, b, c] = [webhook(0), webhook(1), webhook(2, { status: 'failed', failed_at: at(2) })];
    for (const created of [a!, b!, c!]) await webhooks.create(tenant, created);
    expect(await webhooks.failedCount(tenant)).toBe(1);
    await webhooks.update(tenant, a!.id, { status: 'failed', failed_at: at(3) }, at(3));
    // Failing again (a second delivery gave up) does not count it twice.
    expect(await webhooks.update(tenant, a!.id, { status: 'failed', failed_at: at(4) }, at(4))).toMatchObject({
      status: 'failed',
      failed_at: at(4),
    });
    expect(await webhooks.failedCount(tenant)).toBe(2);
    expect(await webhooks.update(tenant, a!.id, { status: 'enabled', failed_at: null, active: true }, at(5))).toMatchObject({
      status: 'enabled',
      failed_at: null,
      updated_at: at(5),
    });
    await webhooks.update(tenant, b!.id, { status: 'enabled' }, at(5));
    expect(await webhooks.failedCount(tenant)).toBe(1);
    expect(await webhooks.delete(tenant, c!.id)).toBe(true);
    expect(await webhooks.failedCount(tenant)).toBe(0);
    expect(await webhooks.delete(tenant, a!.id)).toBe(true);
    expect(await webhooks.delete(tenant, c!.id)).toBe(false);
    expect(await webhooks.failedCount(tenant)).toBe(0);
    expect((await webhooks.list(tenant, byCreation(), {})).total).toBe(1);
    expect(await webhooks.update(tenant, webhook(9).id, { status: 'failed' }, at(9))).toBeUndefined();
    expect(await webhooks.failedCount(tenant)).toBe(0);
    await webhooks.create(otherMode, webhook(3, { status: 'failed', failed_at: at(3) }));
    expect(await webhooks.failedCount(tenant)).toBe(0);
    expect(await webhooks.failedCount(otherMode)).toBe(1);
  });
});

/** The same repositories, with the events their writes recorded (type and data). */
const withEvents: Array<[string, () => Promise<{ webhooks: WebhookRepository; events: () => Promise<PendingEvent[]> }>]> = [
  [
    'the in-memory fake',
    async () => {
      const recorded: PendingEvent[] = [];
      return { webhooks: inMemoryWebhooks(recorded), events: async () => recorded };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const events = async () =>
        (await dynamoEventRepository(table).list(tenant, { page: 1, perPage: 100, sort: 'created_at', order: 'asc' }, {})).items.map(
          ({ type, data }) => ({ type, data }),
        );
      return { webhooks: dynamoWebhookRepository(table), events };
    },
  ],
];

describe.each(withEvents)('WebhookRepository: %s, the event of a move of status', (_name, make) => {
  const enabledEvent = (from: Webhook, minute: number): PendingEvent => ({
    type: 'webhook.enabled',
    data: { ...viewOfWebhook(from), status: 'enabled', failed_at: null, updated_at: at(minute) },
  });

  it('is written with the move, once: not when the status was already there, nor when the webhook changed meanwhile', async () => {
    const { webhooks, events } = await make();
    const [a, b, c] = [0, 1, 2].map((m) => webhook(m, { status: 'failed', failed_at: at(m) })) as [Webhook, Webhook, Webhook];
    for (const created of [a, b, c]) await webhooks.create(tenant, created);
    const enable = { status: 'enabled', failed_at: null, active: true } as const;

    // Moved without the webhook as read, then again (already enabled: no move, no event).
    await webhooks.update(tenant, a.id, enable, at(3), undefined, enabledEvent(a, 3));
    await webhooks.update(tenant, a.id, enable, at(4), undefined, enabledEvent(a, 4));
    // Moved given the webhook as read (an If-Match).
    await webhooks.update(tenant, b.id, enable, at(5), b, enabledEvent(b, 5));
    // Given the webhook as read, but changed since: nothing written, no event.
    await webhooks.update(tenant, c.id, { description: 'renamed' }, at(6));
    expect(await webhooks.update(tenant, c.id, enable, at(7), c, enabledEvent(c, 7))).toBe('changed');

    expect(await events()).toEqual([enabledEvent(a, 3), enabledEvent(b, 5)]);
    expect(await webhooks.failedCount(tenant)).toBe(1);
  });
});
