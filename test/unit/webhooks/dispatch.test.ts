import { isoTime } from '../../../functions/core/clock';
import { newEvent } from '../../../functions/core/events/event';
import type { Tenant } from '../../../functions/core/tenancy';
import { type DeliveryMessage, type Mailer, maxCarriedPayloadBytes } from '../../../functions/core/webhooks/delivery';
import { attemptLeaseMs, dispatchDelivery, type DispatchDeps, type SendAttempt } from '../../../functions/core/webhooks/dispatch';
import { fanOutEvent, fanOutEvents, newDelivery } from '../../../functions/core/webhooks/fan-out';
import { verifyWebhookSignature } from '../../../functions/core/webhooks/signature';
import { viewOfWebhook } from '../../../functions/core/webhooks/webhook';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { inMemoryAccountRepository } from '../fakes/account-repository';
import { controlledClock } from '../fakes/clock';
import { eventPayload } from '../../../functions/core/webhooks/event-payload';
import {
  deliveryAt,
  eventOfDeliveryAt,
  inMemoryDeliveries,
  inMemoryEvents,
  inMemoryWebhooks,
  webhookAt,
} from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };

const setUp = (answer: { ok: boolean; statusCode: number | null } = { ok: true, statusCode: 200 }) => {
  const clock = controlledClock();
  // The events the repositories' transactions record (a webhook's move into `failed`).
  const recorded: PendingEvent[] = [];
  const webhooks = inMemoryWebhooks(recorded);
  const deliveries = inMemoryDeliveries(webhooks);
  const events = inMemoryEvents();
  const queued: DeliveryMessage[] = [];
  const requests: Parameters<SendAttempt>[0][] = [];
  const mails: Parameters<Mailer['send']>[0][] = [];
  const deps: DispatchDeps = {
    webhooks,
    events,
    deliveries,
    deletedWebhookDeliveries: deliveries,
    accounts: inMemoryAccountRepository(),
    queue: { send: async (message) => void queued.push(message) },
    mailer: { send: async (mail) => void mails.push(mail) },
    send: async (request) => {
      requests.push(request);
      return {
        ...answer,
        durationMs: 12,
        error: answer.ok ? null : 'http_status',
        errorMessage: answer.ok ? null : 'HTTP 500',
        responseExcerpt: '',
      };
    },
    clock,
    policyFor: () => ({ requireHttps: true, allowPrivate: false }),
    userAgent: 'test-agent',
    delayScale: 1,
  };
  return { clock, webhooks, deliveries, events, queued, requests, mails, recorded, deps };
};

/** `setUp` with the webhook, the event and its delivery of `deliveryAt` stored. */
const withDelivery = async (answer?: Parameters<typeof setUp>[0]) => {
  const context = setUp(answer);
  const event = eventOfDeliveryAt(context.clock.now());
  await context.webhooks.create(tenant, webhookAt(context.clock.now()));
  await context.events.record(tenant, event);
  await context.deliveries.create(tenant, deliveryAt(context.clock.now()));
  return { ...context, event };
};

const firstMessage = (nowMs: number): DeliveryMessage => ({
  account_id: tenant.accountId,
  mode: tenant.mode,
  webhook_id: 'wh_1',
  delivery_id: 'dlv_1',
  event_id: 'evt_1',
  sequence: 1,
  attempt: 1,
  not_before: nowMs,
});

describe('dispatchDelivery', () => {
  it('sends one signed attempt with the event id, type, delivery id and attempt number, and records success', async () => {
    const { clock, deliveries, requests, queued, deps } = await withDelivery();
    await dispatchDelivery(firstMessage(clock.now()), deps);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.headers).toMatchObject({
      'X-Service-Event-Id': 'evt_1',
      'X-Service-Event-Type': 'workflow.created',
      'X-Service-Delivery-Id': 'dlv_1',
      'X-Service-Attempt': '1',
      'User-Agent': 'test-agent',
    });
    expect(request?.headers).not.toHaveProperty('X-Service-Test');
    const nowSeconds = Math.floor(clock.now() / 1000);
    expect(verifyWebhookSignature(request?.body ?? '', request?.headers['X-Service-Signature'], 'whsec_test_secret', { nowSeconds })).toBe(
      true,
    );
    const stored = await deliveries.get(tenant, 'wh_1', 'dlv_1');
    expect(stored).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    expect(stored?.attempts).toEqual([
      expect.objectContaining({ sequence: 1, number: 1, url: webhookAt(0).url, status_code: 200, error: null }),
    ]);
    expect(queued).toEqual([]);
  });

  it('never repeats an attempt for a duplicate message', async () => {
    const { clock, deliveries, requests, deps } = await withDelivery({ ok: false, statusCode: 500 });
    await dispatchDelivery(firstMessage(clock.now()), deps);
    await dispatchDelivery(firstMessage(clock.now()), deps);
    expect(requests).toHaveLength(1);
    expect((await deliveries.get(tenant, 'wh_1', 'dlv_1'))?.attempts).toHaveLength(1);
  });

  it('counts an attempt cut short by a crash as failed once its lease is over, and schedules the retry', async () => {
    const { clock, deliveries, requests, queued, deps } = await withDelivery();
    // A dispatcher claimed attempt 1 and died before making or recording it.
    expect(await deliveries.claimAttempt(tenant, 'wh_1', 'dlv_1', 1, 1, isoTime(clock.now()))).toBe(true);

    // The message comes back while the lease still runs: look again when it ends.
    clock.advance(1_000);
    await dispatchDelivery(firstMessage(clock.now() - 1_000), deps);
    expect(requests).toHaveLength(0);
    expect(queued.at(-1)).toMatchObject({ attempt: 1, not_before: clock.now() - 1_000 + attemptLeaseMs });

    clock.advance(attemptLeaseMs);
    await dispatchDelivery(firstMessage(clock.now()), deps);
    const stored = await deliveries.get(tenant, 'wh_1', 'dlv_1');
    // Where the lost attempt went died with its dispatcher: not guessed from the webhook as it is now.
    expect(stored?.attempts).toEqual([expect.objectContaining({ number: 1, url: null, error: 'connection', status_code: null })]);
    expect(stored?.status).toBe('pending');
    expect(queued.at(-1)).toMatchObject({ attempt: 2, not_before: clock.now() + 5_000 });
    expect(requests).toHaveLength(0);
  });

  it('queues the retry again when the message comes back after sending it failed, at its scheduled time, and makes it once', async () => {
    const { clock, deliveries, requests, queued, deps } = await withDelivery({ ok: false, statusCode: 500 });
    // The queue refuses the first send: the retry of attempt 1, right after its result was recorded.
    let refusals = 1;
    const send = deps.queue.send;
    deps.queue = {
      send: async (message) => {
        if (refusals-- > 0) throw new Error('queue unavailable');
        await send(message);
      },
    };
    const attemptedAt = clock.now();
    await expect(dispatchDelivery(firstMessage(attemptedAt), deps)).rejects.toThrow('queue unavailable');
    expect(await deliveries.get(tenant, 'wh_1', 'dlv_1')).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(queued).toEqual([]);

    // A duplicate copy received for the first time does not queue it: its sender queued it, or is received again.
    await dispatchDelivery(firstMessage(attemptedAt), deps, { receiveCount: 1 });
    expect(queued).toEqual([]);

    // The failed message comes back (the queue's visibility timeout): the retry is queued for its time.
    clock.advance(1_000);
    await dispatchDelivery(firstMessage(attemptedAt), deps, { receiveCount: 2 });
    expect(queued).toEqual([expect.objectContaining({ attempt: 2, sequence: 1, not_before: attemptedAt + 5_000 })]);
    expect(requests).toHaveLength(1);

    // Come early, it waits; come twice (had the first send gone through after all), the claim drops the second.
    const retry = queued[0] as DeliveryMessage;
    await dispatchDelivery(retry, deps);
    expect(requests).toHaveLength(1);
    clock.advance(4_000);
    await dispatchDelivery(retry, deps);
    await dispatchDelivery(retry, deps);
    expect(requests.map((request) => request.headers['X-Service-Attempt'])).toEqual(['1', '2']);
    const stored = await deliveries.get(tenant, 'wh_1', 'dlv_1');
    expect(stored?.attempts.map((attempt) => attempt.number)).toEqual([1, 2]);
    expect(stored).toMatchObject({ status: 'pending', attempt_count: 2 });

    // Attempt 1 received yet again once attempt 2 is made: nothing more to queue.
    const queuedBefore = queued.length;
    await dispatchDelivery(firstMessage(attemptedAt), deps, { receiveCount: 3 });
    expect(queued).toHaveLength(queuedBefore);
  });

  it('skips a delivery whose webhook was paused meanwhile, and makes no attempt', async () => {
    const { clock, webhooks, deliveries, requests, deps } = setUp();
    await webhooks.create(tenant, { ...webhookAt(clock.now()), active: false });
    await deliveries.create(tenant, deliveryAt(clock.now()));
    await dispatchDelivery(firstMessage(clock.now()), deps);
    expect(requests).toHaveLength(0);
    expect((await deliveries.get(tenant, 'wh_1', 'dlv_1'))?.status).toBe('skipped');
  });

  it("takes a deleted webhook's deliveries with it, those created after its deletion too, and makes no attempt", async () => {
    const { clock, webhooks, deliveries, requests, deps } = await withDelivery();
    await webhooks.delete(tenant, 'wh_1');
    // The fan-out read the webhook before it was deleted, and wrote a second delivery after.
    await deliveries.create(tenant, { ...deliveryAt(clock.now()), id: 'dlv_2' });
    await dispatchDelivery(firstMessage(clock.now()), deps);
    expect(requests).toHaveLength(0);
    expect(await deliveries.get(tenant, 'wh_1', 'dlv_1')).toBeUndefined();
    expect(await deliveries.get(tenant, 'wh_1', 'dlv_2')).toBeUndefined();
  });

  it('keeps the deliveries of a webhook that exists though the batch did not see it: the message comes back', async () => {
    const { clock, deliveries, requests, deps } = await withDelivery();
    const missed = { ...deps, webhooks: { get: async () => undefined } };
    await expect(dispatchDelivery(firstMessage(clock.now()), missed)).rejects.toThrow('exists but was not read');
    expect(requests).toHaveLength(0);
    expect(await deliveries.get(tenant, 'wh_1', 'dlv_1')).toMatchObject({ status: 'pending', attempt_count: 0 });
  });

  it('sends the event as stored, the same bytes on every attempt', async () => {
    const { clock, requests, queued, event, deps } = await withDelivery({ ok: false, statusCode: 500 });
    await dispatchDelivery(firstMessage(clock.now()), deps);
    clock.advance(5_000);
    await dispatchDelivery(queued[0] as DeliveryMessage, deps);

    expect(requests).toHaveLength(2);
    expect(requests[0]?.body).toBe(eventPayload(event));
    expect(requests[1]?.body).toBe(requests[0]?.body);
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      id: 'evt_1',
      type: 'workflow.created',
      created_at: event.created_at,
      data: event.data,
    });
    expect(queued[1]).toMatchObject({ event_id: 'evt_1', attempt: 3 });
  });

  it('sends the body its message carries without reading the event, and carries it on to the retry', async () => {
    const { clock, webhooks, deliveries, requests, queued, deps } = setUp({ ok: false, statusCode: 503 });
    await webhooks.create(tenant, webhookAt(clock.now()));
    await deliveries.create(tenant, deliveryAt(clock.now()));
    // The event is not in the store: a read of it would find nothing and stop the attempt.
    const carried = '{"id":"evt_1","type":"workflow.created","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
    await dispatchDelivery({ ...firstMessage(clock.now()), payload: carried }, deps);
    clock.advance(5_000);
    await dispatchDelivery(queued[0] as DeliveryMessage, deps);

    expect(requests.map((r) => r.body)).toEqual([carried, carried]);
    expect(queued.map((m) => [m.attempt, m.payload])).toEqual([
      [2, carried],
      [3, carried],
    ]);
  });

  it('sends the body a delivery was stored with, from before bodies were left to the event', async () => {
    const { clock, webhooks, deliveries, requests, deps } = setUp();
    await webhooks.create(tenant, webhookAt(clock.now()));
    const stored = '{"id":"evt_1","type":"workflow.created","created_at":"2026-01-01T00:00:00.000Z","data":{"b":1,"a":2}}';
    await deliveries.create(tenant, { ...deliveryAt(clock.now()), payload: stored });
    // Queued before messages named the event, too: nothing else is read.
    const { event_id: _eventId, ...oldMessage } = firstMessage(clock.now());
    await dispatchDelivery(oldMessage, deps);
    expect(requests.map((r) => r.body)).toEqual([stored]);
  });

  it('reads the event by the delivery for a message queued before messages named it', async () => {
    const { clock, requests, event, deps } = await withDelivery();
    const { event_id: _eventId, ...oldMessage } = firstMessage(clock.now());
    await dispatchDelivery(oldMessage, deps);
    expect(requests.map((r) => r.body)).toEqual([eventPayload(event)]);
  });

  it('makes no claim while the event cannot be read: the message comes back', async () => {
    const { clock, webhooks, deliveries, requests, queued, deps } = setUp();
    await webhooks.create(tenant, webhookAt(clock.now()));
    await deliveries.create(tenant, deliveryAt(clock.now()));
    await expect(dispatchDelivery(firstMessage(clock.now()), deps)).rejects.toThrow('event evt_1 of delivery dlv_1 is not stored');
    expect(requests).toHaveLength(0);
    expect(queued).toHaveLength(0);
    expect(await deliveries.get(tenant, 'wh_1', 'dlv_1')).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
  });

  it("tells a webhook's move into failed once, with the webhook as stored then, and mails once, however many deliveries give up together", async () => {
    const { clock, webhooks, deliveries, events, requests, mails, recorded, deps } = setUp({ ok: false, statusCode: 500 });
    await deps.accounts.create({ id: tenant.accountId, email: 'owner@example.com', created_at: isoTime(clock.now()) });
    await webhooks.create(tenant, webhookAt(clock.now()));
    await events.record(tenant, eventOfDeliveryAt(clock.now()));
    // Two deliveries, each on its last attempt.
    for (const id of ['dlv_1', 'dlv_2']) await deliveries.create(tenant, { ...deliveryAt(clock.now()), id, attempt_count: 5 });
    // Both attempts are on their way at once (each read the webhook as enabled), and while they
    // are, someone gives the webhook a new URL: the move into failed tells that one.
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const send = deps.send;
    deps.send = async (request) => {
      if (requests.length === 1) {
        await webhooks.update(tenant, 'wh_1', { url: 'https://hooks.example.com/fixed' }, isoTime(clock.now()));
        release();
      }
      const answer = send(request);
      await together;
      return answer;
    };
    const last = (id: string): DeliveryMessage => ({ ...firstMessage(clock.now()), delivery_id: id, attempt: 6 });
    clock.advance(1_000);
    await Promise.all([dispatchDelivery(last('dlv_1'), deps), dispatchDelivery(last('dlv_2'), deps)]);

    expect(requests).toHaveLength(2);
    for (const id of ['dlv_1', 'dlv_2'])
      expect(await deliveries.get(tenant, 'wh_1', id)).toMatchObject({ status: 'failed', attempt_count: 6 });
    const webhook = await webhooks.get(tenant, 'wh_1');
    expect(webhook).toMatchObject({ status: 'failed', url: 'https://hooks.example.com/fixed', failed_at: isoTime(clock.now()) });
    // One event, whose data is the webhook as GET shows it; one e-mail.
    expect(recorded).toEqual([{ type: 'webhook.failed', data: { ...viewOfWebhook(webhook!) } }]);
    expect(mails).toHaveLength(1);
  });

  it('signs with both secrets during a rotation, and with one after it', async () => {
    const { clock, webhooks, deliveries, events, requests, deps } = setUp();
    await events.record(tenant, eventOfDeliveryAt(clock.now()));
    await webhooks.create(tenant, {
      ...webhookAt(clock.now()),
      secret: 'whsec_new',
      previous_secret: 'whsec_old',
      previous_secret_expires_at: isoTime(clock.now() + 1_000),
    });
    await deliveries.create(tenant, deliveryAt(clock.now()));
    await dispatchDelivery(firstMessage(clock.now()), deps);
    const header = requests[0]?.headers['X-Service-Signature'] ?? '';
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of ['whsec_new', 'whsec_old']) {
      expect(verifyWebhookSignature(requests[0]?.body ?? '', header, secret, { nowSeconds: Math.floor(clock.now() / 1000) })).toBe(true);
    }
  });

  it('signs with the new secret alone once the overlap is over, and the webhook.failed it tells says no previous secret signs', async () => {
    const { clock, webhooks, deliveries, events, requests, recorded, deps } = setUp({ ok: false, statusCode: 500 });
    await events.record(tenant, eventOfDeliveryAt(clock.now()));
    await webhooks.create(tenant, {
      ...webhookAt(clock.now()),
      secret: 'whsec_new',
      previous_secret: 'whsec_old',
      previous_secret_expires_at: isoTime(clock.now() + 1_000),
    });
    // The last attempt, made when the overlap is over.
    await deliveries.create(tenant, { ...deliveryAt(clock.now()), attempt_count: 5 });
    clock.advance(1_000);
    await dispatchDelivery({ ...firstMessage(clock.now()), attempt: 6 }, deps);

    const header = requests[0]?.headers['X-Service-Signature'] ?? '';
    expect(header.match(/v1=/g)).toHaveLength(1);
    const nowSeconds = Math.floor(clock.now() / 1000);
    expect(verifyWebhookSignature(requests[0]?.body ?? '', header, 'whsec_new', { nowSeconds })).toBe(true);
    expect(verifyWebhookSignature(requests[0]?.body ?? '', header, 'whsec_old', { nowSeconds })).toBe(false);
    expect(recorded).toEqual([
      { type: 'webhook.failed', data: expect.objectContaining({ id: 'wh_1', status: 'failed', previous_secret_expires_at: null }) },
    ]);
  });
});

describe('fanOutEvent', () => {
  it('creates one delivery per active subscribed webhook, and running again after the attempts neither duplicates nor re-sends', async () => {
    const { clock, webhooks, deliveries, events, queued, requests, deps } = setUp();
    const at = clock.now();
    await webhooks.create(tenant, { ...webhookAt(at), id: 'wh_all', events: ['*'] });
    await webhooks.create(tenant, { ...webhookAt(at), id: 'wh_deploys', events: ['deployment.completed'] });
    await webhooks.create(tenant, { ...webhookAt(at), id: 'wh_other', events: ['workflow.failed'] });
    await webhooks.create(tenant, { ...webhookAt(at), id: 'wh_paused', events: ['*'], active: false });
    await webhooks.create(tenant, { ...webhookAt(at), id: 'wh_failed', events: ['*'], status: 'failed' });
    await webhooks.create({ accountId: 'acct_1', mode: 'test' }, { ...webhookAt(at), id: 'wh_test_mode', events: ['*'] });
    const event = newEvent('deployment.completed', { id: 'dep_1' }, at);
    await events.record(tenant, event);

    const fanOutDeps = { webhooks, deliveries, queue: deps.queue, clock };
    await fanOutEvent(tenant, event, fanOutDeps);
    expect(queued.map((m) => m.webhook_id).sort()).toEqual(['wh_all', 'wh_deploys']);
    for (const message of [...queued]) await dispatchDelivery(message, deps);
    // The stream hands the same record over again: nothing new is created or sent.
    await fanOutEvent(tenant, event, fanOutDeps);
    expect(queued).toHaveLength(2);
    expect(requests).toHaveLength(2);
    const [message] = queued;
    const delivery = await deliveries.get(tenant, message?.webhook_id ?? '', message?.delivery_id ?? '');
    expect(delivery).toMatchObject({ event_id: event.id, status: 'succeeded', attempt_count: 1 });
    // The event is not copied into its deliveries: each message names it and carries its body.
    expect(delivery).not.toHaveProperty('payload');
    expect(queued.map((m) => [m.event_id, m.payload])).toEqual([
      [event.id, eventPayload(event)],
      [event.id, eventPayload(event)],
    ]);
    expect(requests.map((r) => r.body)).toEqual([eventPayload(event), eventPayload(event)]);
    // The failed webhook keeps a record of what it missed, for /recover; the paused one gets nothing.
    const idFor = (webhookId: string) => newDelivery({ ...webhookAt(at), id: webhookId }, event, 'skipped', at).id;
    expect(await deliveries.get(tenant, 'wh_failed', idFor('wh_failed'))).toMatchObject({ status: 'skipped', event_id: event.id });
    expect(await deliveries.get(tenant, 'wh_paused', idFor('wh_paused'))).toBeUndefined();
    expect(await deliveries.get(tenant, 'wh_other', idFor('wh_other'))).toBeUndefined();
  });

  it('leaves a body over 16 KiB out of the messages: the dispatcher reads the event, and sends the same bytes', async () => {
    const { clock, webhooks, deliveries, events, queued, requests, deps } = setUp();
    await webhooks.create(tenant, webhookAt(clock.now()));
    const large = newEvent('deployment.completed', { id: 'dep_1', notes: 'n'.repeat(maxCarriedPayloadBytes) }, clock.now());
    const small = newEvent('deployment.completed', { id: 'dep_2' }, clock.now());
    for (const event of [large, small]) await events.record(tenant, event);

    await fanOutEvents(
      [large, small].map((event) => ({ tenant, event })),
      { webhooks, deliveries, queue: deps.queue, clock },
    );
    expect(queued.map((m) => [m.event_id, m.payload])).toEqual([
      [large.id, undefined],
      [small.id, eventPayload(small)],
    ]);
    for (const message of [...queued]) await dispatchDelivery(message, deps);
    expect(requests.map((r) => r.body)).toEqual([eventPayload(large), eventPayload(small)]);
  });

  it('gives a webhook only the events created after it, however late the stream is read again', async () => {
    const { clock, webhooks, deliveries, queued, deps } = setUp();
    const eventAt = clock.now();
    const event = newEvent('deployment.completed', { id: 'dep_1' }, eventAt);
    await webhooks.create(tenant, { ...webhookAt(eventAt), id: 'wh_before', events: ['*'] });
    await webhooks.create(tenant, { ...webhookAt(eventAt + 1), id: 'wh_after', events: ['*'] });
    await fanOutEvent(tenant, event, { webhooks, deliveries, queue: deps.queue, clock });
    expect(queued.map((m) => m.webhook_id)).toEqual(['wh_before']);
  });
});
