import { isoTime } from '../../../functions/core/clock';
import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryAttempt, DeliveryMessage, Mailer } from '../../../functions/core/webhooks/delivery';
import { notAttemptedMessage, settleDeadLetter } from '../../../functions/core/webhooks/dead-letters';
import { attemptLeaseMs, dispatchDelivery, type DispatchDeps, type SendAttempt } from '../../../functions/core/webhooks/dispatch';
import { recoverDeliveries, redeliver } from '../../../functions/core/webhooks/webhook-use-cases';
import { inMemoryAccountRepository } from '../fakes/account-repository';
import { controlledClock } from '../fakes/clock';
import {
  deliveryAt,
  eventOfDeliveryAt,
  inMemoryDeliveries,
  inMemoryEvents,
  inMemoryWebhooks,
  webhookAt,
} from '../fakes/webhook-repositories';

/**
 * A message of the delivery queue's dead-letter queue: the dispatcher failed on it 5 receives in a
 * row. Its delivery must not stay pending with nothing left to attempt it.
 */
const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };
/** Ids the API accepts (redeliver and recover check them). */
const webhookId = newId('webhook', Date.parse('2026-01-01T00:00:00Z'));
const deliveryId = newId('delivery', Date.parse('2026-01-01T00:00:01Z'));

const setUp = async (options: { eventStored?: boolean } = {}) => {
  const clock = controlledClock();
  const webhooks = inMemoryWebhooks();
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
      return { ok: false, statusCode: 500, durationMs: 12, error: 'http_status', errorMessage: 'HTTP 500', responseExcerpt: '' };
    },
    clock,
    policyFor: () => ({ requireHttps: true, allowPrivate: false }),
    userAgent: 'test-agent',
    delayScale: 1,
  };
  await webhooks.create(tenant, { ...webhookAt(clock.now()), id: webhookId });
  if (options.eventStored ?? true) await events.record(tenant, eventOfDeliveryAt(clock.now()));
  await deliveries.create(tenant, { ...deliveryAt(clock.now()), id: deliveryId, webhook_id: webhookId });
  const redeliveryDeps = { webhooks, deliveries, queue: deps.queue, clock };
  const stored = async () => (await deliveries.get(tenant, webhookId, deliveryId))!;
  return { clock, webhooks, deliveries, queued, requests, mails, deps, redeliveryDeps, stored };
};

const message = (attempt: number, notBefore: number, sequence = 1): DeliveryMessage => ({
  account_id: tenant.accountId,
  mode: tenant.mode,
  webhook_id: webhookId,
  delivery_id: deliveryId,
  event_id: 'evt_1',
  sequence,
  attempt,
  not_before: notBefore,
});

const failedAttempt = (number: number, atMs: number): DeliveryAttempt => ({
  sequence: 1,
  number,
  attempted_at: isoTime(atMs),
  url: webhookAt(0).url,
  status_code: 500,
  duration_ms: 12,
  error: 'http_status',
  error_message: 'HTTP 500',
  response_excerpt: '',
});

describe('settleDeadLetter', () => {
  it('ends a delivery whose first attempt was never made as failed, so redeliver and recover can send it again', async () => {
    // The event cannot be read (a bug): the dispatcher fails on the message before any claim, every time.
    const { clock, queued, requests, mails, deps, redeliveryDeps, stored, webhooks } = await setUp({ eventStored: false });
    const first = message(1, clock.now());
    for (let receive = 1; receive <= 5; receive += 1) await expect(dispatchDelivery(first, deps)).rejects.toThrow(/is not stored/);
    // What the dead letter left before it was settled: pending, nothing claimed, no message left.
    expect(await stored()).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    await expect(redeliver(tenant, webhookId, deliveryId, redeliveryDeps)).rejects.toMatchObject({ code: 'conflict' });

    clock.advance(1_000);
    expect(await settleDeadLetter(first, deps)).toBe('abandoned');
    expect(await stored()).toMatchObject({
      status: 'failed',
      sequence: 1,
      // Claimed with the record: no later copy of the message can make this attempt.
      attempt_count: 1,
      next_attempt_at: null,
      attempts: [
        {
          sequence: 1,
          number: 1,
          attempted_at: isoTime(clock.now()),
          url: null,
          status_code: null,
          duration_ms: 0,
          error: 'not_attempted',
          error_message: notAttemptedMessage,
          response_excerpt: '',
        },
      ],
    });
    expect(requests).toEqual([]);
    // The receiver did nothing wrong: its webhook stays enabled, and nobody is e-mailed.
    expect((await webhooks.get(tenant, webhookId))?.status).toBe('enabled');
    expect(mails).toEqual([]);
    // A second copy of the dead letter changes nothing.
    expect(await settleDeadLetter(first, deps)).toBe('stale');

    expect(await recoverDeliveries(tenant, webhookId, 0, redeliveryDeps)).toMatchObject({ requeued: 1 });
    expect(queued).toEqual([expect.objectContaining({ delivery_id: deliveryId, sequence: 2, attempt: 1 })]);
  });

  it('ends a retry never made the same way, after the attempts that were', async () => {
    const { clock, deliveries, deps, redeliveryDeps, stored } = await setUp();
    await deliveries.claimAttempt(tenant, webhookId, deliveryId, 1, 1, isoTime(clock.now()));
    await deliveries.recordAttempt(
      tenant,
      webhookId,
      deliveryId,
      failedAttempt(1, clock.now()),
      { status: 'pending', next_attempt_at: isoTime(clock.now() + 5_000) },
      isoTime(clock.now()),
    );
    clock.advance(5_000 + 15 * 60_000);
    expect(await settleDeadLetter(message(2, clock.now() - 15 * 60_000), deps)).toBe('abandoned');
    const ended = await stored();
    expect(ended).toMatchObject({ status: 'failed', attempt_count: 2 });
    expect(ended.attempts.map((a) => [a.number, a.error])).toEqual([
      [1, 'http_status'],
      [2, 'not_attempted'],
    ]);
    expect(await redeliver(tenant, webhookId, deliveryId, redeliveryDeps)).toMatchObject({ status: 'pending', sequence: 2 });
  });

  it('queues again the retry after an attempt whose result is recorded (it may have been lost with the dead letter)', async () => {
    const { clock, deliveries, queued, deps, stored } = await setUp();
    await deliveries.claimAttempt(tenant, webhookId, deliveryId, 1, 1, isoTime(clock.now()));
    const retryAt = clock.now() + 5_000;
    await deliveries.recordAttempt(
      tenant,
      webhookId,
      deliveryId,
      failedAttempt(1, clock.now()),
      { status: 'pending', next_attempt_at: isoTime(retryAt) },
      isoTime(clock.now()),
    );
    expect(await settleDeadLetter(message(1, clock.now()), deps)).toBe('requeued');
    // At its time, not before: the schedule stays exact.
    expect(queued).toEqual([expect.objectContaining({ sequence: 1, attempt: 2, not_before: retryAt })]);
    expect(await stored()).toMatchObject({ status: 'pending', attempt_count: 1 });
  });

  it('settles a claimed attempt with no result as the dispatcher does: after its lease, as interrupted, and the schedule goes on', async () => {
    const { clock, deliveries, queued, requests, deps, stored } = await setUp();
    await deliveries.claimAttempt(tenant, webhookId, deliveryId, 1, 1, isoTime(clock.now()));
    // Possibly still on its way: looked at again once its lease is over, never attempted twice.
    expect(await settleDeadLetter(message(1, clock.now()), deps)).toBe('settled');
    expect(queued).toEqual([expect.objectContaining({ attempt: 1, not_before: clock.now() + attemptLeaseMs })]);
    clock.advance(attemptLeaseMs);
    expect(await settleDeadLetter(message(1, clock.now() - attemptLeaseMs), deps)).toBe('settled');
    expect(await stored()).toMatchObject({ status: 'pending', attempts: [expect.objectContaining({ number: 1, error: 'connection' })] });
    expect(queued.at(-1)).toMatchObject({ attempt: 2, not_before: clock.now() + 5_000 });
    expect(requests).toEqual([]);
  });

  it('sends on a message not yet due (what failed was sending it on), and ends nothing early', async () => {
    const { clock, queued, deps, stored } = await setUp();
    const later = message(1, clock.now() + 60 * 60_000);
    expect(await settleDeadLetter(later, deps)).toBe('requeued');
    expect(queued).toEqual([later]);
    expect(await stored()).toMatchObject({ status: 'pending', attempt_count: 0 });
  });

  it('leaves a delivery that moved on: ended, restarted into another sequence, or gone', async () => {
    const { clock, deliveries, queued, deps, stored } = await setUp();
    await deliveries.setStatus(tenant, webhookId, deliveryId, 'succeeded', isoTime(clock.now()));
    expect(await settleDeadLetter(message(1, clock.now()), deps)).toBe('stale');
    expect((await stored()).status).toBe('succeeded');
    const restarted = await deliveries.restart(tenant, webhookId, await stored(), isoTime(clock.now()));
    expect(restarted).toMatchObject({ sequence: 2 });
    expect(await settleDeadLetter(message(1, clock.now()), deps)).toBe('stale');
    expect(await stored()).toMatchObject({ status: 'pending', sequence: 2, attempt_count: 0 });
    expect(await settleDeadLetter({ ...message(1, clock.now()), delivery_id: 'dlv_gone' }, deps)).toBe('stale');
    expect(queued).toEqual([]);
  });
});
