import { newEvent } from '../../../functions/core/events/event';
import type { Tenant } from '../../../functions/core/tenancy';
import { type DispatchReads, type ReadTogether, readsPerBatch } from '../../../functions/core/webhooks/batch-reads';
import { inMemoryEvents, inMemoryWebhooks, readTogetherOf, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'test' };
const other: Tenant = { accountId: 'acct_2', mode: 'test' };
const nowMs = Date.parse('2026-03-01T10:00:00Z');

/** The in-memory stores, their reads alone and together counted. */
const setUp = () => {
  const webhooks = inMemoryWebhooks();
  const events = inMemoryEvents();
  const reads: string[] = [];
  const alone: DispatchReads = {
    webhooks: {
      async get(t, id, options) {
        reads.push(`webhook ${t.accountId}/${id}${options?.consistent ? ' (consistent)' : ''}`);
        return webhooks.get(t, id);
      },
    },
    events: {
      async get(t, id) {
        reads.push(`event ${t.accountId}/${id}`);
        return events.get(t, id);
      },
    },
  };
  const inOneCall = readTogetherOf({ webhooks, events });
  const together: ReadTogether = async (refs) => {
    reads.push(
      `together ${[...refs.webhooks.map((r) => `webhook ${r.tenant.accountId}/${r.id}`), ...refs.events.map((r) => `event ${r.tenant.accountId}/${r.id}`)].join(' + ')}`,
    );
    return inOneCall(refs);
  };
  return { webhooks, events, reads, alone, together };
};

describe('readsPerBatch', () => {
  it('reads each webhook of a batch once, however many of its messages ask at once', async () => {
    const { webhooks, reads, alone, together } = setUp();
    const webhook = webhookAt(nowMs);
    await webhooks.create(tenant, webhook);
    await webhooks.create(other, webhook);
    const batch = readsPerBatch(alone, together);

    const answers = await Promise.all([1, 2, 3].map(() => batch.webhooks.get(tenant, webhook.id)));
    expect(answers).toEqual([webhook, webhook, webhook]);
    // Another account's webhook of the same id is its own read.
    expect(await batch.webhooks.get(other, webhook.id)).toEqual(webhook);
    expect(reads).toEqual([`webhook acct_1/${webhook.id}`, `webhook acct_2/${webhook.id}`]);
    // The next batch reads again.
    await readsPerBatch(alone, together).webhooks.get(tenant, webhook.id);
    expect(reads).toHaveLength(3);
  });

  it("reads the webhooks and events the batch's messages name in one call, each once, and any other alone", async () => {
    const { webhooks, events, reads, alone, together } = setUp();
    const first = webhookAt(nowMs);
    const second = { ...webhookAt(nowMs + 60_000), id: 'wh_2' };
    const event = newEvent('workflow.created', { workflow_id: 'wf_1' }, nowMs);
    await webhooks.create(tenant, first);
    await webhooks.create(other, second);
    await events.record(tenant, event);
    const batch = readsPerBatch(alone, together, {
      webhooks: [
        { tenant, id: first.id },
        { tenant: other, id: second.id },
        { tenant, id: first.id },
      ],
      events: [
        { tenant, id: event.id },
        { tenant, id: event.id },
      ],
    });

    expect(
      await Promise.all([batch.webhooks.get(tenant, first.id), batch.webhooks.get(other, second.id), batch.webhooks.get(tenant, first.id)]),
    ).toEqual([first, second, first]);
    expect(await Promise.all([batch.events.get(tenant, event.id), batch.events.get(tenant, event.id)])).toEqual([event, event]);
    // Not named by the batch (or gone): read alone, once.
    expect(await batch.webhooks.get(tenant, second.id)).toBeUndefined();
    expect(await batch.webhooks.get(tenant, second.id)).toBeUndefined();
    expect(reads).toEqual([
      `together webhook acct_1/${first.id} + webhook acct_2/${second.id} + event acct_1/${event.id}`,
      `webhook acct_1/${second.id}`,
    ]);
  });

  it('an event the batch read did not find is read again alone (that read is consistent; events are never deleted)', async () => {
    const { events, reads, alone } = setUp();
    const event = newEvent('workflow.created', { workflow_id: 'wf_1' }, nowMs);
    await events.record(tenant, event);
    // The batch read, eventually consistent, does not see the event yet.
    const lagging: ReadTogether = async (refs) => ({
      webhooks: refs.webhooks.map(() => undefined),
      events: refs.events.map(() => undefined),
    });
    const batch = readsPerBatch(alone, lagging, { webhooks: [], events: [{ tenant, id: event.id }] });

    expect(await batch.events.get(tenant, event.id)).toEqual(event);
    expect(await batch.events.get(tenant, event.id)).toEqual(event);
    expect(reads).toEqual([`event acct_1/${event.id}`]);
  });

  it('a webhook the batch read did not find is read again alone and consistent before it is taken for deleted', async () => {
    const { webhooks, reads, alone } = setUp();
    const created = webhookAt(nowMs);
    await webhooks.create(tenant, created);
    // Created a moment ago: the batch read, eventually consistent, sees neither it nor the deleted one.
    const lagging: ReadTogether = async (refs) => ({
      webhooks: refs.webhooks.map(() => undefined),
      events: refs.events.map(() => undefined),
    });
    const batch = readsPerBatch(alone, lagging, {
      webhooks: [
        { tenant, id: created.id },
        { tenant, id: 'wh_deleted' },
      ],
      events: [],
    });

    expect(await batch.webhooks.get(tenant, created.id)).toEqual(created);
    expect(await batch.webhooks.get(tenant, 'wh_deleted')).toBeUndefined();
    expect(await batch.webhooks.get(tenant, created.id)).toEqual(created);
    expect(reads).toEqual([`webhook acct_1/${created.id} (consistent)`, 'webhook acct_1/wh_deleted (consistent)']);
  });

  it('a batch read that fails is not kept: each message then reads alone', async () => {
    const { webhooks, events, alone } = setUp();
    const webhook = webhookAt(nowMs);
    const event = newEvent('workflow.created', { workflow_id: 'wf_1' }, nowMs);
    await webhooks.create(tenant, webhook);
    await events.record(tenant, event);
    const batch = readsPerBatch(alone, async () => Promise.reject(new Error('throttled')), {
      webhooks: [{ tenant, id: webhook.id }],
      events: [{ tenant, id: event.id }],
    });
    // The messages that asked while it ran share its failure.
    const first = await Promise.allSettled([batch.webhooks.get(tenant, webhook.id), batch.events.get(tenant, event.id)]);
    expect(first.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(['throttled', 'throttled']);
    expect(await batch.webhooks.get(tenant, webhook.id)).toEqual(webhook);
    expect(await batch.events.get(tenant, event.id)).toEqual(event);
  });

  it('a failed read is not kept: the next message of the batch reads again', async () => {
    const { webhooks, alone, together } = setUp();
    const webhook = webhookAt(nowMs);
    await webhooks.create(tenant, webhook);
    let failures = 1;
    const flaky: DispatchReads = {
      ...alone,
      webhooks: {
        async get(t, id) {
          if (failures-- > 0) throw new Error('throttled');
          return webhooks.get(t, id);
        },
      },
    };
    const batch = readsPerBatch(flaky, together);
    await expect(batch.webhooks.get(tenant, webhook.id)).rejects.toThrow('throttled');
    expect(await batch.webhooks.get(tenant, webhook.id)).toEqual(webhook);
  });
});
