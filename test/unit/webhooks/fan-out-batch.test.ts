import { newEvent } from '../../../functions/core/events/event';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryMessage, DeliveryRepository } from '../../../functions/core/webhooks/delivery';
import { fanOutEvents, type FanOutDeps } from '../../../functions/core/webhooks/fan-out';
import type { Webhook, WebhookRepository } from '../../../functions/core/webhooks/webhook';
import { webhookListCache, webhookListTtlMs } from '../../../functions/core/webhooks/webhook-list-cache';
import { controlledClock } from '../fakes/clock';
import { inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const alice: Tenant = { accountId: 'acct_alice', mode: 'live' };
const bob: Tenant = { accountId: 'acct_bob', mode: 'live' };

/** The in-memory webhooks, counting how often a tenant's list is read. */
const countingWebhooks = () => {
  const webhooks = inMemoryWebhooks();
  const reads: string[] = [];
  const counted: WebhookRepository = {
    ...webhooks,
    async all(tenant) {
      reads.push(tenant.accountId);
      return webhooks.all(tenant);
    },
  };
  return { webhooks: counted, reads };
};

const setUp = () => {
  const clock = controlledClock();
  const { webhooks, reads } = countingWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const batches: DeliveryMessage[][] = [];
  const deps: FanOutDeps = {
    webhooks,
    deliveries,
    queue: {
      send: async (message) => void batches.push([message]),
      sendMany: async (messages) => void batches.push([...messages]),
    },
    clock,
    webhookLists: webhookListCache(webhooks, clock),
  };
  return { clock, webhooks, deliveries, batches, reads, deps };
};

const webhook = (id: string, atMs: number): Webhook => ({ ...webhookAt(atMs), id });

describe('fanOutEvents', () => {
  it("reads each account's webhooks once for a batch, creates every delivery and queues them in one send", async () => {
    const { clock, webhooks, batches, reads, deps } = setUp();
    const at = clock.now();
    await webhooks.create(alice, webhook('wh_a1', at));
    await webhooks.create(alice, webhook('wh_a2', at));
    await webhooks.create(bob, webhook('wh_b1', at));
    clock.advance(10);
    const events = [1, 2, 3].map((n) => newEvent('deployment.completed', { id: `dep_${n}` }, at + n));
    clock.advance(10);
    const results = await fanOutEvents([...events.map((event) => ({ tenant: alice, event })), { tenant: bob, event: events[0]! }], deps);
    expect(results).toEqual([
      { ok: true, webhooks: 2 },
      { ok: true, webhooks: 2 },
      { ok: true, webhooks: 2 },
      { ok: true, webhooks: 1 },
    ]);
    expect(reads.sort()).toEqual(['acct_alice', 'acct_bob']);
    const sent = batches.map((batch) => batch.map((m) => `${m.account_id}:${m.webhook_id}`).sort());
    expect(sent.sort((a, b) => b.length - a.length)).toEqual([
      ['acct_alice:wh_a1', 'acct_alice:wh_a1', 'acct_alice:wh_a1', 'acct_alice:wh_a2', 'acct_alice:wh_a2', 'acct_alice:wh_a2'],
      ['acct_bob:wh_b1'],
    ]);
  });

  it('queues the deliveries of each write as it is done, before the next write, each once', async () => {
    const { clock, webhooks, deliveries, batches, deps } = setUp();
    await webhooks.create(alice, webhook('wh_a1', clock.now()));
    await webhooks.create(alice, webhook('wh_a2', clock.now()));
    clock.advance(10);
    const events = [1, 2].map((n) => newEvent('deployment.completed', { id: `dep_${n}` }, clock.now() + n));
    clock.advance(10);
    // A store that writes a delivery at a time, as a store with small transactions would.
    const queuedBeforeEachWrite: number[] = [];
    const oneByOne: DeliveryRepository = {
      ...deliveries,
      async createMany(tenant, batch, onWritten) {
        const created: boolean[] = [];
        for (const [i, delivery] of batch.entries()) {
          queuedBeforeEachWrite.push(batches.flat().length);
          const [written = false] = await deliveries.createMany(tenant, [delivery]);
          created.push(written);
          if (written) await onWritten?.([i]);
        }
        return created;
      },
    };
    expect(
      await fanOutEvents(
        events.map((event) => ({ tenant: alice, event })),
        { ...deps, deliveries: oneByOne },
      ),
    ).toEqual([
      { ok: true, webhooks: 2 },
      { ok: true, webhooks: 2 },
    ]);
    expect(queuedBeforeEachWrite).toEqual([0, 1, 2, 3]);
    expect(batches.map((batch) => batch.length)).toEqual([1, 1, 1, 1]);
  });

  it("reports one account's failure on its events only", async () => {
    const { clock, webhooks, deliveries, deps } = setUp();
    await webhooks.create(alice, webhook('wh_a1', clock.now()));
    await webhooks.create(bob, webhook('wh_b1', clock.now()));
    const failing: DeliveryRepository = {
      ...deliveries,
      async createMany(tenant, batch) {
        if (tenant.accountId === bob.accountId) throw new Error('throttled');
        return deliveries.createMany(tenant, batch);
      },
    };
    const event = newEvent('deployment.completed', {}, clock.now());
    const results = await fanOutEvents(
      [
        { tenant: alice, event },
        { tenant: bob, event },
      ],
      { ...deps, deliveries: failing },
    );
    expect(results[0]).toEqual({ ok: true, webhooks: 1 });
    expect(results[1]).toMatchObject({ ok: false, error: new Error('throttled') });
  });
});

describe('webhookListCache', () => {
  it('serves a list read after the event was recorded, for a few seconds, and reads again after a change', async () => {
    const { clock, webhooks, reads, deps } = setUp();
    await webhooks.create(alice, webhook('wh_1', clock.now()));
    const lists = deps.webhookLists!;
    const recordedAt = clock.now();
    clock.advance(5);
    expect(await lists.webhooksFor(alice, recordedAt)).toHaveLength(1);
    expect(await lists.webhooksFor(alice, recordedAt + 1)).toHaveLength(1);
    expect(reads).toHaveLength(1);
    lists.invalidate();
    await lists.webhooksFor(alice, recordedAt);
    expect(reads).toHaveLength(2);
    clock.advance(webhookListTtlMs);
    await lists.webhooksFor(alice, recordedAt);
    expect(reads).toHaveLength(3);
  });

  it('never serves a list read before the event was recorded: a webhook created just before the event gets it', async () => {
    const { clock, webhooks, deps, batches } = setUp();
    await webhooks.create(alice, webhook('wh_old', clock.now()));
    clock.advance(5);
    // A list read now, before the new webhook and the event exist.
    await deps.webhookLists!.webhooksFor(alice, clock.now() - 1);
    clock.advance(5);
    await webhooks.create(alice, webhook('wh_new', clock.now()));
    const event = newEvent('deployment.completed', {}, clock.now());
    clock.advance(5);
    expect(await fanOutEvents([{ tenant: alice, event }], deps)).toEqual([{ ok: true, webhooks: 2 }]);
    expect(
      batches
        .flat()
        .map((m) => m.webhook_id)
        .sort(),
    ).toEqual(['wh_new', 'wh_old']);
  });
});
