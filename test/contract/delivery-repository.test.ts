import { dynamoDeliveryList, dynamoDeliveryReader, dynamoDeliveryRepository } from '../../functions/adapters/dynamodb/delivery-repository';
import { dynamoWebhookRepository, webhookReads } from '../../functions/adapters/dynamodb/webhook-repository';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { Delivery, DeliveryAttempt, DeliveryRepository } from '../../functions/core/webhooks/delivery';
import { viewOfWebhook, type Webhook, type WebhookRepository } from '../../functions/core/webhooks/webhook';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { dynamoEventRepository } from '../../functions/adapters/dynamodb/event-repository';
import { inMemoryDeliveries, inMemoryWebhooks } from '../unit/fakes/webhook-repositories';
import { byCreation } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A DeliveryRepository, the webhooks it fails with, and the events those writes recorded (type and data). */
interface Subject {
  deliveries: DeliveryRepository;
  webhooks: WebhookRepository;
  events: () => Promise<PendingEvent[]>;
}

const recordedIn = (table: TableRef) => async (): Promise<PendingEvent[]> =>
  (await dynamoEventRepository(table).list(tenant, { page: 1, perPage: 100, sort: 'created_at', order: 'asc' }, {})).items.map(
    ({ type, data }) => ({ type, data }),
  );

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const recorded: PendingEvent[] = [];
      const webhooks = inMemoryWebhooks(recorded);
      return { webhooks, deliveries: inMemoryDeliveries(webhooks), events: async () => recorded };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return { webhooks: dynamoWebhookRepository(table), deliveries: dynamoDeliveryRepository(table), events: recordedIn(table) };
    },
  ],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        webhooks: { ...dynamoWebhookRepository(table), ...webhookReads(table) },
        deliveries: { ...dynamoDeliveryRepository(table), ...dynamoDeliveryReader(table), ...dynamoDeliveryList(table) },
        events: recordedIn(table),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minute: number): string => new Date(start + minute * 60_000).toISOString();

const webhook: Webhook = {
  id: newId('webhook', start - 3_600_000),
  url: 'https://hooks.example.com/in',
  events: ['*'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: at(-60),
  updated_at: at(-60),
  failed_at: null,
  secret: 'whsec_contract',
  previous_secret: null,
  previous_secret_expires_at: null,
};

/** How the dispatcher makes the `webhook.failed` event of the webhook as the move stores it. */
const failedEventOf = (moved: Webhook): PendingEvent => ({ type: 'webhook.failed', data: { ...viewOfWebhook(moved) } });

/** The event of `webhook`'s move into failed at `minute`. */
const failedEvent = (minute: number, from: Webhook = webhook): PendingEvent =>
  failedEventOf({ ...from, status: 'failed', failed_at: at(minute), updated_at: at(minute) });
const otherWebhookId = newId('webhook', start - 1_800_000);

const delivery = (minute: number, overrides: Partial<Delivery> = {}): Delivery => ({
  id: newId('delivery', start + minute * 60_000),
  webhook_id: webhook.id,
  event_id: newId('event', start + minute * 60_000),
  event_type: 'workflow.completed',
  status: 'pending',
  test: false,
  sequence: 1,
  attempt_count: 0,
  attempt_claimed_at: null,
  attempts: [],
  next_attempt_at: at(minute),
  created_at: at(minute),
  updated_at: at(minute),
  ...overrides,
});

const attempt = (sequence: number, number: number, minute: number, statusCode: number | null = 500): DeliveryAttempt => ({
  sequence,
  number,
  attempted_at: at(minute),
  url: 'http://127.0.0.1:9/hook',
  status_code: statusCode,
  duration_ms: 120,
  error: statusCode === null ? 'timeout' : statusCode >= 400 ? 'http_status' : null,
  error_message: statusCode === null ? 'no answer within 10 s' : null,
  response_excerpt: statusCode === null ? '' : 'Internal Server Error',
});

describe.each(implementations)('DeliveryRepository: %s', (_name, make) => {
  let subject: Subject;
  let deliveries: DeliveryRepository;
  beforeEach(async () => {
    subject = await make();
    deliveries = subject.deliveries;
    await subject.webhooks.create(tenant, webhook);
  });

  it('creates a delivery once (a second create of the id answers false and keeps the first), per webhook', async () => {
    const created = delivery(0);
    expect(await deliveries.create(tenant, created)).toBe(true);
    expect(await deliveries.create(tenant, { ...created, event_type: 'deployment.failed' })).toBe(false);
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(created);
    expect(await deliveries.get(tenant, otherWebhookId, created.id)).toBeUndefined();
    expect(await deliveries.get({ ...tenant, mode: 'test' }, webhook.id, created.id)).toBeUndefined();
  });

  it('keeps the body of a delivery stored with one (a test delivery), and gives none where none was stored', async () => {
    const withBody = delivery(0, {
      test: true,
      payload: JSON.stringify({ id: 'evt_0', type: 'workflow.completed', created_at: at(0), data: { n: 0 } }),
    });
    const withoutBody = delivery(1);
    await deliveries.create(tenant, withBody);
    await deliveries.createMany(tenant, [withoutBody]);
    expect(await deliveries.get(tenant, webhook.id, withBody.id)).toStrictEqual(withBody);
    expect(await deliveries.get(tenant, webhook.id, withoutBody.id)).toStrictEqual(withoutBody);
    expect(await deliveries.claim(tenant, webhook.id, withoutBody.id, 1, 1, at(2))).not.toHaveProperty('payload');
  });

  it("lists a webhook's deliveries by creation, filtered by status, event type and created time, with the total", async () => {
    const [a, b, c] = [
      delivery(0),
      delivery(1, { status: 'failed', event_type: 'deployment.failed' }),
      delivery(2, { status: 'succeeded' }),
    ];
    for (const created of [c!, a!, b!]) await deliveries.create(tenant, created);
    await deliveries.create(tenant, delivery(3, { webhook_id: otherWebhookId }));
    const all = await deliveries.list(tenant, webhook.id, byCreation('desc'), {});
    expect({ ids: all.items.map((d) => d.id), total: all.total }).toEqual({ ids: [c!.id, b!.id, a!.id], total: 3 });
    expect(all.items[1]).toEqual(b);
    const failed = await deliveries.list(tenant, webhook.id, byCreation(), { status: 'failed' });
    expect({ ids: failed.items.map((d) => d.id), total: failed.total }).toEqual({ ids: [b!.id], total: 1 });
    const ofType = await deliveries.list(tenant, webhook.id, byCreation(), { event_type: 'workflow.completed' });
    expect({ ids: ofType.items.map((d) => d.id), total: ofType.total }).toEqual({ ids: [a!.id, c!.id], total: 2 });
    const window = await deliveries.list(tenant, webhook.id, byCreation('asc', { createdFrom: start + 60_000 }), {});
    expect({ ids: window.items.map((d) => d.id), total: window.total }).toEqual({ ids: [b!.id, c!.id], total: 2 });
    const second = await deliveries.list(tenant, webhook.id, byCreation('asc', { page: 2, perPage: 2 }), {});
    expect({ ids: second.items.map((d) => d.id), total: second.total }).toEqual({ ids: [c!.id], total: 3 });
  });

  it('finds the deliveries in given statuses created at or after a time, oldest first', async () => {
    const [before, failed, skipped, pending] = [
      delivery(0, { status: 'failed' }),
      delivery(1, { status: 'failed' }),
      delivery(2, { status: 'skipped' }),
      delivery(3),
    ];
    for (const created of [pending!, skipped!, before!, failed!]) await deliveries.create(tenant, created);
    await deliveries.create(tenant, delivery(4, { webhook_id: otherWebhookId, status: 'failed' }));
    expect(await deliveries.findSince(tenant, webhook.id, ['failed', 'skipped'], start + 60_000)).toEqual([failed, skipped]);
    expect((await deliveries.findSince(tenant, webhook.id, ['failed'], 0)).map((d) => d.id)).toEqual([before!.id, failed!.id]);
    // At most as many as asked for, oldest first; never a test delivery (it is never sent again).
    expect((await deliveries.findSince(tenant, webhook.id, ['failed', 'skipped'], 0, 2)).map((d) => d.id)).toEqual([
      before!.id,
      failed!.id,
    ]);
    await deliveries.create(tenant, delivery(5, { status: 'failed', test: true }));
    expect((await deliveries.findSince(tenant, webhook.id, ['failed'], 0)).map((d) => d.id)).toEqual([before!.id, failed!.id]);
  });

  it('claims only the next attempt of the current sequence of a pending delivery', async () => {
    const created = delivery(0);
    await deliveries.create(tenant, created);
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 2, at(1))).toBe(false);
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 2, 1, at(1))).toBe(false);
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 1, at(1))).toBe(true);
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 1, at(1))).toBe(false);
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual({
      ...created,
      attempt_count: 1,
      attempt_claimed_at: at(1),
      updated_at: at(1),
    });
    await deliveries.setStatus(tenant, webhook.id, created.id, 'skipped', at(2));
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 2, at(3))).toBe(false);
    expect(await deliveries.claimAttempt(tenant, webhook.id, newId('delivery', start), 1, 1, at(3))).toBe(false);
  });

  it('records an attempt and its outcome in its own sequence only', async () => {
    const created = delivery(0);
    await deliveries.create(tenant, created);
    await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 1, at(1));
    const first = attempt(1, 1, 1);
    await deliveries.recordAttempt(tenant, webhook.id, created.id, first, { status: 'pending', next_attempt_at: at(6) }, at(2));
    const recorded = await deliveries.get(tenant, webhook.id, created.id);
    expect(recorded).toEqual({
      ...created,
      attempt_count: 1,
      attempt_claimed_at: at(1),
      attempts: [first],
      next_attempt_at: at(6),
      updated_at: at(2),
    });
    // An attempt of another sequence (a redelivery started meanwhile) is not recorded; nor is one of an unknown delivery.
    await deliveries.recordAttempt(tenant, webhook.id, created.id, attempt(2, 1, 3), { status: 'succeeded', next_attempt_at: null }, at(3));
    await deliveries.recordAttempt(tenant, webhook.id, newId('delivery', start), first, { status: 'failed', next_attempt_at: null }, at(3));
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(recorded);
    expect(await deliveries.get(tenant, webhook.id, newId('delivery', start))).toBeUndefined();
  });

  it('restarts a delivery as a new, pending sequence, keeping its attempts; not_found for an unknown one', async () => {
    const failed = delivery(0, {
      status: 'failed',
      attempt_count: 6,
      attempt_claimed_at: at(5),
      attempts: [attempt(1, 6, 5)],
      next_attempt_at: null,
    });
    await deliveries.create(tenant, failed);
    const restarted = {
      ...failed,
      status: 'pending',
      sequence: 2,
      attempt_count: 0,
      attempt_claimed_at: null,
      next_attempt_at: at(9),
      updated_at: at(9),
    };
    expect(await deliveries.restart(tenant, webhook.id, failed, at(9))).toEqual(restarted);
    expect(await deliveries.get(tenant, webhook.id, failed.id)).toEqual(restarted);
    const unknown = { ...failed, id: newId('delivery', start) };
    expect(await deliveries.restart(tenant, webhook.id, unknown, at(9))).toBe('not_found');
    expect(await deliveries.get(tenant, webhook.id, unknown.id)).toBeUndefined();
  });

  it('restarts once of two restarts at once, never a pending delivery, and keeps only the latest attempts', async () => {
    const attempts = Array.from({ length: 20 }, (_, i) => attempt(Math.floor(i / 6) + 1, (i % 6) + 1, i));
    const failed = delivery(0, { status: 'failed', sequence: 4, attempt_count: 2, attempts, next_attempt_at: null });
    await deliveries.create(tenant, failed);
    const answers = await Promise.all([
      deliveries.restart(tenant, webhook.id, failed, at(30)),
      deliveries.restart(tenant, webhook.id, failed, at(30)),
    ]);
    expect(answers.filter((answer) => answer === 'changed')).toHaveLength(1);
    const restarted = answers.find((answer): answer is Delivery => typeof answer !== 'string');
    expect(restarted).toMatchObject({ status: 'pending', sequence: 5, attempts: attempts.slice(-6) });
    expect(await deliveries.get(tenant, webhook.id, failed.id)).toEqual(restarted);
    // Pending (being attempted): not restarted, whatever sequence the caller read.
    expect(await deliveries.restart(tenant, webhook.id, restarted as Delivery, at(31))).toBe('changed');
  });

  it('restarts a pending delivery waiting for its retry, unless an attempt was claimed or recorded since it was read', async () => {
    // Waiting: attempt 1 made and recorded, attempt 2 due at minute 6.
    const waiting = delivery(0, { attempt_count: 1, attempt_claimed_at: at(1), attempts: [attempt(1, 1, 1)], next_attempt_at: at(6) });
    await deliveries.create(tenant, waiting);
    expect(await deliveries.restart(tenant, webhook.id, waiting, at(2))).toMatchObject({
      status: 'pending',
      sequence: 2,
      attempt_count: 0,
      next_attempt_at: at(2),
      attempts: waiting.attempts,
    });

    // Read while waiting, then attempt 2 claimed before the restart: the restart loses.
    const second = delivery(1, { attempt_count: 1, attempt_claimed_at: at(1), attempts: [attempt(1, 1, 1)], next_attempt_at: at(6) });
    await deliveries.create(tenant, second);
    expect(await deliveries.claimAttempt(tenant, webhook.id, second.id, 1, 2, at(6))).toBe(true);
    expect(await deliveries.restart(tenant, webhook.id, second, at(6))).toBe('changed');
    // ...and once attempt 2 has its result, read again, it may be restarted.
    await deliveries.recordAttempt(tenant, webhook.id, second.id, attempt(1, 2, 6), { status: 'pending', next_attempt_at: at(11) }, at(6));
    const read = (await deliveries.get(tenant, webhook.id, second.id)) as Delivery;
    expect(await deliveries.restart(tenant, webhook.id, read, at(7))).toMatchObject({ sequence: 2, attempt_count: 0 });

    // Queued for its first attempt (none made yet): not restarted.
    const queued = delivery(2);
    await deliveries.create(tenant, queued);
    expect(await deliveries.restart(tenant, webhook.id, queued, at(3))).toBe('changed');
  });

  it('finds stranded pending deliveries beside the given statuses: attempt due before the cutoff, nothing claimed since', async () => {
    const cutoff = at(40);
    const [failed, neverClaimed, claimedLongAgo, claimedSince, dueAfter] = [
      delivery(0, { status: 'failed', next_attempt_at: null }),
      delivery(1),
      delivery(2, { attempt_count: 1, attempt_claimed_at: at(3) }),
      delivery(3, { attempt_count: 1, attempt_claimed_at: at(41) }),
      delivery(4, { attempt_count: 2, attempt_claimed_at: at(5), attempts: [attempt(1, 1, 4), attempt(1, 2, 5)], next_attempt_at: at(45) }),
    ];
    for (const created of [failed!, neverClaimed!, claimedLongAgo!, claimedSince!, dueAfter!]) await deliveries.create(tenant, created);
    await deliveries.create(tenant, delivery(5, { test: true }));
    expect((await deliveries.findSince(tenant, webhook.id, ['failed', 'skipped'], 0, undefined, cutoff)).map((d) => d.id)).toEqual([
      failed!.id,
      neverClaimed!.id,
      claimedLongAgo!.id,
    ]);
    // Without a cutoff, none of the pending ones.
    expect((await deliveries.findSince(tenant, webhook.id, ['failed', 'skipped'], 0)).map((d) => d.id)).toEqual([failed!.id]);
  });

  it('restarts a stranded delivery whose first attempt was due before the cutoff, unless claimed since it was read', async () => {
    const queued = delivery(0);
    await deliveries.create(tenant, queued);
    // Due at minute 0: not before a cutoff at minute 0, so it may still come.
    expect(await deliveries.restart(tenant, webhook.id, queued, at(31), at(0))).toBe('changed');
    expect(await deliveries.restart(tenant, webhook.id, queued, at(31), at(1))).toMatchObject({
      status: 'pending',
      sequence: 2,
      attempt_count: 0,
      next_attempt_at: at(31),
    });
    // Read stranded, then its old message claimed the attempt after all: the restart loses.
    const late = delivery(1);
    await deliveries.create(tenant, late);
    expect(await deliveries.claimAttempt(tenant, webhook.id, late.id, 1, 1, at(32))).toBe(true);
    expect(await deliveries.restart(tenant, webhook.id, late, at(33), at(2))).toBe('changed');
    expect(await deliveries.get(tenant, webhook.id, late.id)).toMatchObject({ sequence: 1, attempt_count: 1 });
  });

  it('abandons an attempt never made: claims it and ends the delivery failed with its record, only as the next attempt of a pending sequence', async () => {
    const created = delivery(0);
    await deliveries.create(tenant, created);
    const notMade: DeliveryAttempt = {
      sequence: 1,
      number: 1,
      attempted_at: at(20),
      url: null,
      status_code: null,
      duration_ms: 0,
      error: 'not_attempted',
      error_message: 'not attempted',
      response_excerpt: '',
    };
    // Not the next attempt, or another sequence: refused, nothing changed.
    expect(await deliveries.abandon(tenant, webhook.id, created.id, { ...notMade, number: 2 }, at(20))).toBe(false);
    expect(await deliveries.abandon(tenant, webhook.id, created.id, { ...notMade, sequence: 2 }, at(20))).toBe(false);
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(created);
    expect(await deliveries.abandon(tenant, webhook.id, created.id, notMade, at(20))).toBe(true);
    const ended = {
      ...created,
      status: 'failed',
      attempt_count: 1,
      attempt_claimed_at: at(20),
      attempts: [notMade],
      next_attempt_at: null,
      updated_at: at(20),
    };
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(ended);
    // Ended: never abandoned (or claimed) again; an unknown delivery neither.
    expect(await deliveries.abandon(tenant, webhook.id, created.id, { ...notMade, number: 2 }, at(21))).toBe(false);
    expect(await deliveries.claimAttempt(tenant, webhook.id, created.id, 1, 2, at(21))).toBe(false);
    expect(await deliveries.abandon(tenant, webhook.id, newId('delivery', start), notMade, at(21))).toBe(false);
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(ended);
    // A claimed attempt (on its way) is not abandoned.
    const claimed = delivery(1);
    await deliveries.create(tenant, claimed);
    await deliveries.claimAttempt(tenant, webhook.id, claimed.id, 1, 1, at(22));
    expect(await deliveries.abandon(tenant, webhook.id, claimed.id, notMade, at(23))).toBe(false);
  });

  it('fails the delivery and its webhook together after the last attempt', async () => {
    const created = delivery(0, { attempt_count: 6 });
    await deliveries.create(tenant, created);
    const last = attempt(1, 6, 7, null);
    expect(await deliveries.failWithWebhook(tenant, webhook.id, created.id, last, at(8), failedEventOf)).toBe(true);
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual({
      ...created,
      status: 'failed',
      attempts: [last],
      next_attempt_at: null,
      updated_at: at(8),
    });
    expect(await subject.webhooks.get(tenant, webhook.id)).toEqual({ ...webhook, status: 'failed', failed_at: at(8), updated_at: at(8) });
    expect(await subject.webhooks.failedCount(tenant)).toBe(1);
    // Its event, in the same transaction.
    expect(await subject.events()).toEqual([failedEvent(8)]);
  });

  it('counts the webhook failed once, and tells it once, when a second delivery gives up after the first, which leaves the webhook as it is', async () => {
    const [first, second] = [delivery(0, { attempt_count: 6 }), delivery(1, { attempt_count: 6 })];
    for (const created of [first!, second!]) await deliveries.create(tenant, created);
    expect(await deliveries.failWithWebhook(tenant, webhook.id, first!.id, attempt(1, 6, 7, null), at(8), failedEventOf)).toBe(true);
    expect(await deliveries.failWithWebhook(tenant, webhook.id, second!.id, attempt(1, 6, 9, null), at(10), failedEventOf)).toBe(false);
    expect(await deliveries.get(tenant, webhook.id, second!.id)).toMatchObject({ status: 'failed', updated_at: at(10) });
    // Failed at the move, as its event tells: what GET shows is what the event said.
    expect(await subject.webhooks.get(tenant, webhook.id)).toEqual({ ...webhook, status: 'failed', failed_at: at(8), updated_at: at(8) });
    expect(await subject.webhooks.failedCount(tenant)).toBe(1);
    expect(await subject.events()).toEqual([failedEvent(8)]);
  });

  it('tells the webhook as the move stores it, though it changed since the dispatcher read it', async () => {
    const created = delivery(0, { attempt_count: 6 });
    await deliveries.create(tenant, created);
    // A new URL while the last attempt was on its way to the old one.
    await subject.webhooks.update(tenant, webhook.id, { url: 'https://hooks.example.com/fixed', description: 'mended' }, at(7));
    expect(await deliveries.failWithWebhook(tenant, webhook.id, created.id, attempt(1, 6, 7, null), at(8), failedEventOf)).toBe(true);
    const stored = await subject.webhooks.get(tenant, webhook.id);
    expect(stored).toMatchObject({ status: 'failed', url: 'https://hooks.example.com/fixed', description: 'mended', failed_at: at(8) });
    expect(await subject.events()).toEqual([{ type: 'webhook.failed', data: { ...viewOfWebhook(stored!) } }]);
  });

  it('refuses to fail a delivery that moved to another sequence, or whose webhook is gone, and changes nothing', async () => {
    const created = delivery(0, { sequence: 2 });
    await deliveries.create(tenant, created);
    await expect(deliveries.failWithWebhook(tenant, webhook.id, created.id, attempt(1, 6, 7), at(8), failedEventOf)).rejects.toThrow();
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual(created);
    expect(await subject.webhooks.get(tenant, webhook.id)).toEqual(webhook);

    const orphan = delivery(1, { webhook_id: otherWebhookId });
    await deliveries.create(tenant, orphan);
    await expect(deliveries.failWithWebhook(tenant, otherWebhookId, orphan.id, attempt(1, 6, 7), at(8), failedEventOf)).rejects.toThrow();
    expect(await deliveries.get(tenant, otherWebhookId, orphan.id)).toEqual(orphan);
    expect(await subject.webhooks.get(tenant, otherWebhookId)).toBeUndefined();
    expect(await subject.webhooks.failedCount(tenant)).toBe(0);
    expect(await subject.events()).toEqual([]);
  });

  it('sets a status, ending the schedule; refuses an unknown delivery', async () => {
    const created = delivery(0);
    await deliveries.create(tenant, created);
    await deliveries.setStatus(tenant, webhook.id, created.id, 'skipped', at(4));
    expect(await deliveries.get(tenant, webhook.id, created.id)).toEqual({
      ...created,
      status: 'skipped',
      next_attempt_at: null,
      updated_at: at(4),
    });
    await expect(deliveries.setStatus(tenant, webhook.id, newId('delivery', start), 'failed', at(4))).rejects.toThrow();
    expect(await deliveries.get(tenant, webhook.id, newId('delivery', start))).toBeUndefined();
  });
});
