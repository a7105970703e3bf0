import { isoTime } from '../../../functions/core/clock';
import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import type { Delivery, DeliveryMessage } from '../../../functions/core/webhooks/delivery';
import {
  getWebhook,
  listWebhooks,
  maxRecoveredPerCall,
  recoverDeliveries,
  redeliver,
  rotateWebhookSecret,
  testAttemptTimeoutMs,
  testWebhook,
  updateWebhook,
  type WebhookDeps,
} from '../../../functions/core/webhooks/webhook-use-cases';
import { signingSecrets, viewOfWebhook, type WebhookRepository } from '../../../functions/core/webhooks/webhook';
import { entityTagOf } from '../../../functions/core/preconditions';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { testAttemptTimeoutFromEnvironment } from '../../../functions/adapters/runtime/webhook-runtime';
import { routeTable } from '../../../functions/routes';
import { statusOf } from '../../../functions/http/error-status';
import { controlledClock } from '../fakes/clock';
import { deliveryAt, inMemoryDeliveries, inMemoryWebhooks, webhookAt } from '../fakes/webhook-repositories';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };

const setUp = async (webhookChanges: { status?: 'enabled' | 'failed'; active?: boolean }) => {
  const clock = controlledClock();
  const webhooks = inMemoryWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const queued: DeliveryMessage[] = [];
  const webhook = { ...webhookAt(clock.now()), id: newId('webhook', clock.now()), ...webhookChanges };
  const delivery = {
    ...deliveryAt(clock.now()),
    id: newId('delivery', clock.now()),
    webhook_id: webhook.id,
    status: 'failed' as const,
    attempt_count: 6,
    next_attempt_at: null,
    updated_at: isoTime(clock.now()),
  };
  await webhooks.create(tenant, webhook);
  await deliveries.create(tenant, delivery);
  const deps: WebhookDeps = {
    webhooks,
    deliveries,
    queue: { send: async (message) => void queued.push(message) },
    clock,
    policyFor: () => ({ requireHttps: true, allowPrivate: false }),
    assessTarget: async () => ({ ok: true }),
    send: async () => {
      throw new Error('no attempt is made here');
    },
    userAgent: 'test-agent',
    testAttemptTimeoutMs: 10_000,
  };
  return { deps, queued, webhook, delivery, deliveries };
};

describe('redeliver', () => {
  it.each([
    ['failed', { status: 'failed' as const }],
    ['inactive', { active: false }],
  ])('answers 409 saying to re-enable a %s webhook first, and queues nothing', async (_, changes) => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp(changes);
    const error = await redeliver(tenant, webhook.id, delivery.id, deps).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('Re-enable the webhook first') });
    expect(statusOf(error as Parameters<typeof statusOf>[0])).toBe(409);
    expect(queued).toEqual([]);
    expect((await deliveries.get(tenant, webhook.id, delivery.id))?.status).toBe('failed');
  });

  it('tries a delivery waiting for its retry now; one whose attempt is on its way, or whose first is queued, is 409', async () => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp({});
    const made = {
      sequence: 1,
      number: 1,
      attempted_at: isoTime(deps.clock.now()),
      url: webhook.url,
      status_code: 503,
      duration_ms: 20,
      error: 'http_status' as const,
      error_message: 'HTTP 503',
      response_excerpt: '',
    };
    const retryAt = isoTime(deps.clock.now() + 30 * 60_000);
    const waiting = {
      ...delivery,
      id: newId('delivery', deps.clock.now() + 1),
      status: 'pending' as const,
      attempt_count: 1,
      attempts: [made],
      next_attempt_at: retryAt,
    };
    const inFlight = { ...waiting, id: newId('delivery', deps.clock.now() + 2), attempt_count: 2 };
    const firstQueued = { ...waiting, id: newId('delivery', deps.clock.now() + 3), attempt_count: 0, attempts: [] };
    for (const created of [waiting, inFlight, firstQueued]) await deliveries.create(tenant, created);

    expect(await redeliver(tenant, webhook.id, waiting.id, deps)).toMatchObject({ status: 'pending', sequence: 2, attempt_count: 0 });
    expect(queued).toEqual([expect.objectContaining({ delivery_id: waiting.id, sequence: 2, attempt: 1 })]);
    for (const busy of [inFlight, firstQueued]) {
      const error = await redeliver(tenant, webhook.id, busy.id, deps).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('being attempted right now') });
    }
    expect(queued).toHaveLength(1);
  });

  it('restarts a stranded delivery (its attempt due over 30 minutes ago and not claimed since: no message is left), never one on its way', async () => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp({});
    const nowMs = deps.clock.now();
    const pendingSince = (minutesAgo: number, changes: Partial<Delivery> = {}): Delivery => ({
      ...delivery,
      id: newId('delivery', nowMs - minutesAgo * 60_000),
      status: 'pending' as const,
      attempt_count: 0,
      attempts: [],
      next_attempt_at: isoTime(nowMs - minutesAgo * 60_000),
      ...changes,
    });
    // First attempt queued 31 minutes ago, never claimed (its message was dead-lettered before dead letters were settled).
    const neverClaimed = pendingSince(31);
    // Claimed 31 minutes ago and no result since: its dispatcher is long gone.
    const claimedLongAgo = pendingSince(40, { attempt_count: 1, attempt_claimed_at: isoTime(nowMs - 31 * 60_000) });
    // Due 29 minutes ago: its message may still come (a dispatcher failing on it, a backlog).
    const lateButAlive = pendingSince(29);
    // Claimed a minute ago, due long before: on its way now.
    const onItsWay = pendingSince(40, { attempt_count: 1, attempt_claimed_at: isoTime(nowMs - 60_000) });
    for (const created of [neverClaimed, claimedLongAgo, lateButAlive, onItsWay]) await deliveries.create(tenant, created);

    for (const strandedOne of [neverClaimed, claimedLongAgo]) {
      expect(await redeliver(tenant, webhook.id, strandedOne.id, deps)).toMatchObject({ status: 'pending', sequence: 2, attempt_count: 0 });
    }
    for (const busy of [lateButAlive, onItsWay]) {
      const error = await redeliver(tenant, webhook.id, busy.id, deps).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('being attempted right now') });
    }
    expect(queued.map((m) => [m.delivery_id, m.sequence, m.attempt])).toEqual([
      [neverClaimed.id, 2, 1],
      [claimedLongAgo.id, 2, 1],
    ]);
  });

  it('queues a new sequence for an enabled, active webhook', async () => {
    const { deps, queued, webhook, delivery } = await setUp({});
    expect(await redeliver(tenant, webhook.id, delivery.id, deps)).toMatchObject({ status: 'pending', sequence: 2 });
    expect(queued).toHaveLength(1);
  });
});

describe('recover', () => {
  it('queues stranded pending deliveries too (those left before dead letters were settled), never one whose attempt may still come', async () => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp({});
    const nowMs = deps.clock.now();
    const pending = (minutesAgo: number, changes: Partial<Delivery> = {}): Delivery => ({
      ...delivery,
      id: newId('delivery', nowMs - minutesAgo * 60_000),
      status: 'pending' as const,
      attempt_count: 0,
      attempts: [],
      next_attempt_at: isoTime(nowMs - minutesAgo * 60_000),
      ...changes,
    });
    const strandedOne = pending(45);
    const waitingForALaterRetry = pending(50, { attempt_count: 5, next_attempt_at: isoTime(nowMs + 60 * 60_000) });
    const onItsWay = pending(55, { attempt_count: 1, attempt_claimed_at: isoTime(nowMs - 5_000) });
    const justQueued = pending(1);
    for (const created of [strandedOne, waitingForALaterRetry, onItsWay, justQueued]) await deliveries.create(tenant, created);

    // The set-up's failed delivery and the stranded one; the rest stay as they are.
    expect(await recoverDeliveries(tenant, webhook.id, nowMs - 60 * 60_000, deps)).toMatchObject({ requeued: 2, has_more: false });
    expect(queued.map((m) => m.delivery_id).sort()).toEqual([delivery.id, strandedOne.id].sort());
    for (const left of [waitingForALaterRetry, onItsWay, justQueued]) {
      expect(await deliveries.get(tenant, webhook.id, left.id)).toMatchObject({ sequence: 1, attempt_count: left.attempt_count });
    }
  });

  it('queues at most 500 deliveries a call, oldest first, and says more wait; the next call goes on with the rest', async () => {
    const { deps, queued, webhook, delivery, deliveries } = await setUp({});
    // The set-up's failed delivery and 502 more, one millisecond apart.
    for (let i = 1; i <= maxRecoveredPerCall + 2; i++) {
      await deliveries.create(tenant, { ...delivery, id: newId('delivery', deps.clock.now() + i), event_id: `evt_${i}` });
    }
    const since = deps.clock.now() - 1;
    const first = await recoverDeliveries(tenant, webhook.id, since, deps);
    expect(first).toMatchObject({ requeued: maxRecoveredPerCall, has_more: true });
    // Oldest first: the set-up's delivery is in the first call's batch.
    expect(queued.map((message) => message.delivery_id)).toContain(delivery.id);
    const second = await recoverDeliveries(tenant, webhook.id, since, deps);
    expect(second).toMatchObject({ requeued: 3, has_more: false });
    expect(new Set(queued.map((message) => message.delivery_id)).size).toBe(maxRecoveredPerCall + 3);
    expect(await recoverDeliveries(tenant, webhook.id, since, deps)).toMatchObject({ requeued: 0, has_more: false });
  });
});

describe('test attempts', () => {
  it('bound the attempt by the test timeout and record a slow receiver as the attempt’s timeout result', async () => {
    const { deps, webhook } = await setUp({});
    const bounds: (number | undefined)[] = [];
    deps.testAttemptTimeoutMs = 2_000;
    deps.send = async (request) => {
      bounds.push(request.timeoutMs);
      return {
        ok: false,
        statusCode: null,
        durationMs: 2_001,
        error: 'timeout',
        errorMessage: 'no response within 2000 ms',
        responseExcerpt: '',
      };
    };
    const headers: Record<string, string>[] = [];
    const timingOut = deps.send;
    deps.send = async (request) => {
      headers.push(request.headers);
      return timingOut(request);
    };
    const delivery = await testWebhook(tenant, webhook.id, 'workflow.completed', deps);
    expect(bounds).toEqual([2_000]);
    // The receiver can tell an example event from a real one.
    expect(headers).toEqual([expect.objectContaining({ 'X-Service-Test': 'true', 'X-Service-Event-Type': 'workflow.completed' })]);
    expect(delivery).toMatchObject({ status: 'failed', test: true, next_attempt_at: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, status_code: null, error: 'timeout' })]);
    expect(await deps.deliveries.get(tenant, webhook.id, delivery.id)).toMatchObject({ status: 'failed' });
  });

  it.each([
    ['failed', { status: 'failed' as const }],
    ['paused', { active: false }],
  ])('go to a %s webhook too, leaving it as it is: a fixed receiver can be checked before re-enabling', async (_, changes) => {
    const { deps, webhook } = await setUp(changes);
    const sent: string[] = [];
    deps.send = async (request) => {
      sent.push(request.url);
      return { ok: true, statusCode: 204, durationMs: 3, error: null, errorMessage: null, responseExcerpt: '' };
    };
    const delivery = await testWebhook(tenant, webhook.id, 'deployment.failed', deps);
    expect(sent).toEqual([webhook.url]);
    expect(delivery).toMatchObject({ status: 'succeeded', test: true });
    expect(delivery.attempts).toEqual([expect.objectContaining({ url: webhook.url, status_code: 204 })]);
    expect(await deps.webhooks.get(tenant, webhook.id)).toMatchObject({ ...changes, updated_at: webhook.updated_at });
  });

  it('fit well inside the time limit of every route that makes one', () => {
    const routes = routeTable.filter((route) => route.handler === 'webhooks/test' || route.handler === 'dashboard/webhooks/test-event');
    expect(routes).toHaveLength(2);
    for (const route of routes) expect((route.timeoutSeconds ?? 10) * 1000).toBeGreaterThanOrEqual(testAttemptTimeoutMs + 10_000);
  });

  it.each([
    [undefined, 10_000],
    ['2000', 2_000],
    ['60000', 10_000],
    ['0', 10_000],
    ['soon', 10_000],
  ])('LOCAL_WEBHOOK_TEST_TIMEOUT_MS=%s gives %d ms (only shorter than 10 s is honoured)', (value, expected) => {
    expect(testAttemptTimeoutFromEnvironment(value === undefined ? {} : { LOCAL_WEBHOOK_TEST_TIMEOUT_MS: value })).toBe(expected);
  });
});

describe('updateWebhook: re-enabling', () => {
  it('tells the webhook as the move stores it, though another write landed between the read and the move', async () => {
    const clock = controlledClock();
    const recorded: PendingEvent[] = [];
    const webhooks = inMemoryWebhooks(recorded);
    const failed = {
      ...webhookAt(clock.now()),
      id: newId('webhook', clock.now()),
      status: 'failed' as const,
      failed_at: isoTime(clock.now()),
    };
    await webhooks.create(tenant, failed);
    // Someone renames the webhook just after the re-enable read it.
    let meanwhile = true;
    const racing: WebhookRepository = {
      ...webhooks,
      async get(t, id, options) {
        const read = await webhooks.get(t, id, options);
        if (meanwhile) {
          meanwhile = false;
          await webhooks.update(t, id, { description: 'renamed meanwhile' }, isoTime(clock.now()));
        }
        return read;
      },
    };
    clock.advance(1_000);
    const deps = {
      webhooks: racing,
      clock,
      policyFor: () => ({ requireHttps: true, allowPrivate: false }),
      assessTarget: async () => ({ ok: true as const }),
    };
    const answered = await updateWebhook(tenant, failed.id, { active: true }, deps);

    const stored = (await webhooks.get(tenant, failed.id))!;
    expect(stored).toMatchObject({ status: 'enabled', failed_at: null, description: 'renamed meanwhile' });
    expect(answered).toEqual(viewOfWebhook(stored));
    expect(recorded).toEqual([{ type: 'webhook.enabled', data: { ...viewOfWebhook(stored) } }]);
  });
});

describe('a rotated secret’s overlap', () => {
  it('is shown while the previous secret signs, and answered as gone once it expired: by get, list, update and the re-enable event', async () => {
    const clock = controlledClock();
    const recorded: PendingEvent[] = [];
    const webhooks = inMemoryWebhooks(recorded);
    const webhook = {
      ...webhookAt(clock.now()),
      id: newId('webhook', clock.now()),
      status: 'failed' as const,
      failed_at: isoTime(clock.now()),
    };
    await webhooks.create(tenant, webhook);
    const deps = {
      webhooks,
      clock,
      policyFor: () => ({ requireHttps: true, allowPrivate: false }),
      assessTarget: async () => ({ ok: true as const }),
    };
    const listed = async () => (await listWebhooks(tenant, { page: 1, perPage: 20, sort: 'created_at', order: 'desc' }, {}, deps)).items;

    const rotated = await rotateWebhookSecret(tenant, webhook.id, 60, deps);
    const expiresAt = isoTime(clock.now() + 60_000);
    expect(rotated.previous_secret_expires_at).toBe(expiresAt);
    clock.advance(59_999);
    expect((await getWebhook(tenant, webhook.id, deps)).previous_secret_expires_at).toBe(expiresAt);
    expect((await listed())[0]?.previous_secret_expires_at).toBe(expiresAt);
    expect(signingSecrets((await webhooks.get(tenant, webhook.id))!, clock.now())).toHaveLength(2);

    // The overlap is over: the old secret no longer signs, and nothing says it does.
    clock.advance(1);
    const stored = (await webhooks.get(tenant, webhook.id))!;
    expect(stored.previous_secret_expires_at).toBe(expiresAt);
    expect(signingSecrets(stored, clock.now())).toEqual([rotated.secret]);
    const shown = await getWebhook(tenant, webhook.id, deps);
    expect(shown).toEqual({ ...viewOfWebhook(stored), previous_secret_expires_at: null });
    expect((await listed())[0]).toEqual(shown);

    // The ETag of what GET shows is the one an If-Match gives; the re-enable and its event show it too.
    const enabled = await updateWebhook(tenant, webhook.id, { active: true }, deps, entityTagOf(shown));
    expect(enabled).toMatchObject({ status: 'enabled', previous_secret_expires_at: null });
    expect(recorded).toEqual([
      { type: 'webhook.enabled', data: expect.objectContaining({ id: webhook.id, previous_secret_expires_at: null }) },
    ]);
  });
});
