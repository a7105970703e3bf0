import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verifyWebhookSignature } from '../../functions/core/webhooks/signature';
import { as } from './support/http';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';
import { newPerson, webClient } from './support/web-client';
import { createWebhook, recordEvent, sleep, waitForDelivery } from './support/webhooks';

/**
 * The retry schedule of a delivery that never succeeds, in the shared runtime, which runs with
 * LOCAL_TIME_SCALE=0.01: the retries after 5 s, 30 s, 5 min, 30 min and 2 h come after
 * 50 ms, 300 ms, 3 s, 18 s and 72 s, each counted from the END of the failed attempt.
 */
const scale = 0.01;
const scheduledGapsMs = [5_000, 30_000, 300_000, 1_800_000, 7_200_000].map((ms) => ms * scale);
/**
 * What the local runtime may add to a scheduled gap. Between the end of one attempt and the next
 * request it records the result, queues the retry, takes the due message from its table-backed
 * queue, reads the delivery and the webhook and claims the attempt: a handful of DynamoDB Local
 * round trips of a few milliseconds each. At real scale (5 s to 2 h) that is negligible; at 1/100
 * it is not, against 50 ms, so a gap may exceed its schedule by 10 % OR by this allowance, or by
 * twice what the runtime took to make the first attempt of the event (a busy machine slows every
 * step alike: the schedule is late only beyond what the runtime needs to act on anything due now).
 */
const localAllowanceMs = 100;

const header = (request: ReceivedRequest, name: string) => request.headers[name] as string | undefined;

let hooks: Receiver | undefined;
let otherHooks: Receiver | undefined;
let monitorHooks: Receiver | undefined;
afterAll(async () => {
  await hooks?.close();
  await otherHooks?.close();
  await monitorHooks?.close();
});

describe('webhook retry schedule', () => {
  it('makes 6 attempts on the schedule, fails the webhook, notifies, skips, and recovers', async () => {
    const person = await newPerson();
    const { account, test } = person;
    const api = as(test.key);
    // The dashboard's badge (failed webhooks in the mode shown) follows every change of status below.
    const browser = webClient();
    expect((await browser.signIn(person.email, person.password)).status).toBe(303);
    await browser.submit('/dashboard', '/dashboard/mode', { mode: 'test', return_to: '/dashboard' });
    const badge = async (): Promise<string | undefined> =>
      /dash-nav__badge">([^<]+)</.exec((await browser.get('/dashboard/projects')).text)?.[1];

    // Warm-up, not measured: a few short retry sequences through the same code paths, so that the
    // first measured gaps do not pay for cold code (module loading and JIT in the runtime and in
    // DynamoDB Local's JVM), which can add tens of milliseconds once. The local server also loads
    // a handler module on its first use, holding up the runtime's only thread meanwhile: the
    // routes polled below are called once here for that reason.
    const warmUp = await startReceiver((r) => (r.index % 3 === 0 ? { status: 200 } : { status: 500 }));
    try {
      const warmHook = await createWebhook(api, { url: warmUp.url(), events: ['review.completed'] });
      for (let round = 1; round <= 3; round += 1) {
        await recordEvent(account.id, 'test', 'review.completed');
        await warmUp.waitFor(3 * round);
      }
      const [warmRequest] = warmUp.requests as [ReceivedRequest];
      await waitForDelivery(api, warmHook.id, header(warmRequest, 'x-service-delivery-id') as string, (d) => d.status === 'succeeded');
      expect((await api.get(`/webhooks/${warmHook.id}/deliveries?status=skipped`)).status).toBe(200);
      expect((await api.delete(`/webhooks/${warmHook.id}`)).status).toBe(204);
    } finally {
      await warmUp.close();
    }

    // The receiver takes its time to fail: a schedule counted from the START of an attempt, not
    // from its end, would then make the next attempt visibly early.
    const answerDelayMs = 250;
    hooks = await startReceiver({ status: 500, body: 'always failing', delayMs: answerDelayMs });
    const receiver = hooks;
    // The types this test records (a webhook subscribed to `*` would also get the webhook.* events below).
    const hook = await createWebhook(api, {
      url: receiver.url(),
      events: ['deployment.failed', 'deployment.started', 'workflow.cancelled'],
    });
    // A third webhook watches the others: it is told when one fails and when it is enabled again.
    monitorHooks = await startReceiver({ status: 200 });
    const monitor = monitorHooks;
    await createWebhook(api, { url: monitor.url(), events: ['webhook.failed', 'webhook.enabled'] });
    // A second webhook fails on the first event (its own receiver), to be deleted while failed. It
    // is subscribed to every type, so it is sent the first webhook's webhook.failed, not its own.
    otherHooks = await startReceiver({ status: 500, body: 'down too' });
    const other = otherHooks;
    const otherHook = await createWebhook(api, { url: other.url(), events: ['*'] });
    expect(await badge()).toBeUndefined();
    const since = new Date(Date.now() - 1_000).toISOString();

    const event = await recordEvent(account.id, 'test', 'deployment.failed', { id: 'dep_1', status: 'failed' });
    const [first] = (await receiver.waitFor(1)) as [ReceivedRequest];
    const deliveryId = header(first, 'x-service-delivery-id') as string;
    const allowanceMs = Math.max(localAllowanceMs, 2 * (first.arrivedAt - Date.parse(event.created_at)));
    const tolerance = (gapMs: number) => Math.max(gapMs * 0.1, allowanceMs);

    // From the third attempt on (the gaps before it are too short to watch), watch the delivery
    // record to see the `next_attempt_at` it announces after each failed attempt (the record only
    // keeps the latest one). Not earlier: polling competes with the runtime for its one thread.
    await receiver.waitFor(3);
    const announced = new Map<number, string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const answer = await api.get(`/webhooks/${hook.id}/deliveries/${deliveryId}`);
        const d = answer.body?.data;
        if (answer.status === 200 && d.status === 'pending' && d.next_attempt_at && d.attempts.length > 0) {
          announced.set(d.attempts.length, d.next_attempt_at);
        }
        await sleep(250);
      }
    })();
    const total = scheduledGapsMs.reduce((a, b) => a + b, 0);
    try {
      await receiver.waitFor(6, total + 15_000);
    } finally {
      watching = false;
      await watcher;
    }
    const failed = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'failed');
    // No 7th attempt, however long we wait.
    await sleep(2_000);
    const attempts = receiver.requests.slice();
    expect(attempts).toHaveLength(6);

    // Six requests of the same event and delivery, numbered 1..6, each signed validly at its own time.
    expect(attempts.map((r) => header(r, 'x-service-attempt'))).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const request of attempts) {
      expect(header(request, 'x-service-event-id')).toBe(event.id);
      expect(header(request, 'x-service-delivery-id')).toBe(deliveryId);
      expect(JSON.parse(request.body)).toEqual(event);
      expect(verifyWebhookSignature(request.rawBody, header(request, 'x-service-signature'), hook.secret)).toBe(true);
    }

    // As the receiver measured it: from when it answered attempt n to when attempt n+1 arrived.
    const measured = scheduledGapsMs.map((gap, i) => {
      const answered = (attempts[i] as ReceivedRequest).answeredAt as number;
      return { attempt: i + 1, gap, measured: (attempts[i + 1] as ReceivedRequest).arrivedAt - answered };
    });
    for (const { attempt, gap, measured: ms } of measured) {
      const context = { attempt, scheduled: gap, measured: ms };
      expect({ ...context, early: ms < gap }).toEqual({ ...context, early: false });
      expect({ ...context, late: ms - gap > tolerance(gap) }).toEqual({ ...context, late: false });
    }

    // As the delivery record states it: the next attempt is made no earlier than the scheduled gap
    // after the failed attempt ended (attempted_at + duration_ms), and not much later.
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null, sequence: 1, attempt_count: 6, event_id: event.id });
    expect(failed.attempts).toHaveLength(6);
    failed.attempts.forEach((a: { number: number; status_code: number; error: string; response_excerpt: string }, i: number) => {
      expect(a).toMatchObject({ sequence: 1, number: i + 1, status_code: 500, error: 'http_status', response_excerpt: 'always failing' });
      expect(failed.attempts[i].duration_ms).toBeGreaterThanOrEqual(answerDelayMs);
    });
    const startOf = (n: number) => Date.parse(failed.attempts[n - 1].attempted_at);
    const endOf = (n: number) => startOf(n) + failed.attempts[n - 1].duration_ms;
    scheduledGapsMs.forEach((gap, i) => {
      const n = i + 1;
      const recorded = startOf(n + 1) - endOf(n);
      const context = { attempt: n, scheduled: gap, recorded };
      expect({ ...context, early: recorded < gap }).toEqual({ ...context, early: false });
      expect({ ...context, late: recorded > gap + tolerance(gap) }).toEqual({ ...context, late: false });
      // Where the watcher saw the announced time of attempt n+1: it is the scheduled gap after the
      // end of attempt n, and attempt n+1 kept it.
      const next = announced.get(n);
      if (next !== undefined) {
        const announcedMs = Date.parse(next);
        const planned = {
          attempt: n,
          scheduled: gap,
          announcedAfterEnd: announcedMs - endOf(n),
          madeAfterAnnounced: startOf(n + 1) - announcedMs,
        };
        expect(planned.announcedAfterEnd).toBeGreaterThanOrEqual(gap);
        expect(planned.announcedAfterEnd).toBeLessThanOrEqual(gap + allowanceMs);
        expect(planned.madeAfterAnnounced).toBeGreaterThanOrEqual(0);
        expect(planned.madeAfterAnnounced).toBeLessThanOrEqual(tolerance(gap));
      }
    });
    // The long gaps (3 s, 18 s, 72 s) cannot be missed by a watcher polling every 250 ms.
    expect([...announced.keys()]).toEqual(expect.arrayContaining([3, 4, 5]));

    // The webhook is failed, and the account's e-mail was told so.
    const webhook = (await api.get(`/webhooks/${hook.id}`)).body.data;
    expect(webhook).toMatchObject({ status: 'failed', active: true, failed_at: expect.any(String) });
    expect(Math.abs(Date.parse(webhook.failed_at) - endOf(6))).toBeLessThan(2_000);
    await eventually(
      async () => (await api.get(`/webhooks/${otherHook.id}`)).body.data.status === 'failed',
      60_000,
      () => 'the second webhook never failed',
      250,
    );
    expect((await api.get('/webhooks?status=failed')).body.data.map((w: { id: string }) => w.id).sort()).toEqual(
      [hook.id, otherHook.id].sort(),
    );
    expect(await badge()).toBe('2 failed');
    // Each webhook's failure is fanned out once the watcher has it (a fan-out writes an event's
    // deliveries in one transaction). The second webhook has a delivery of the first one's, and none
    // of its own: it was failed by then, so it would have been recorded as skipped, and `recover`
    // would have replayed the stale notice to it once enabled again.
    const bodyOf = (request: ReceivedRequest) => JSON.parse(request.body) as { id: string; type: string; data: Record<string, unknown> };
    const failures = (await monitor.waitFor(2)).map(bodyOf);
    const failureOf = (id: string) => failures.find((e) => e.data.id === id) as { id: string; data: Record<string, unknown> };
    const otherSent = (await api.get(`/webhooks/${otherHook.id}/deliveries?event_type=webhook.failed`)).body.data as { event_id: string }[];
    expect(otherSent.map((d) => d.event_id)).toEqual([failureOf(hook.id).id]);
    expect((await api.delete(`/webhooks/${otherHook.id}`)).status).toBe(204);
    expect(await badge()).toBe('1 failed');
    const outbox = join(process.env.IT_DATA_DIR as string, 'outbox');
    const mails = await eventually(
      async () => {
        const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
        const all = await Promise.all(
          files.map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8')) as { to: string; subject: string; text: string }),
        );
        const mine = all.filter((m) => m.to === account.email);
        return mine.length >= 2 ? mine : undefined;
      },
      5_000,
      () => `not two e-mails to ${account.email} in ${outbox}`,
    );
    // One e-mail for each failed webhook.
    expect(mails).toHaveLength(2);
    for (const id of [hook.id, otherHook.id]) {
      expect([id, mails.filter((m) => `${m.subject}\n${m.text}`.includes(id)).length]).toEqual([id, 1]);
    }

    // Each move into `failed` is an event (one for each webhook), delivered to the webhook watching
    // for it: the webhook as it was once failed, without its secret.
    expect(failures.map((e) => [e.type, e.data.id]).sort()).toEqual(
      [
        ['webhook.failed', hook.id],
        ['webhook.failed', otherHook.id],
      ].sort(),
    );
    const hookFailure = failureOf(hook.id);
    expect(hookFailure.data).toEqual({ ...webhook, status: 'failed' });
    expect(hookFailure.data).not.toHaveProperty('secret');
    const listed = (await api.get('/events?type=webhook.failed')).body.data as { id: string }[];
    expect(listed.map((e) => e.id)).toContain(hookFailure.id);

    // Events that occur while the webhook is failed are recorded as skipped deliveries, not sent.
    const missed = [
      await recordEvent(account.id, 'test', 'deployment.started', { id: 'dep_2', status: 'in_progress' }),
      await recordEvent(account.id, 'test', 'workflow.cancelled', { id: 'wf_9', status: 'cancelled' }),
    ];
    const skipped = await eventually(
      async () => {
        const list = (await api.get(`/webhooks/${hook.id}/deliveries?status=skipped`)).body.data as { event_id: string }[];
        return list.length === 2 ? list : undefined;
      },
      10_000,
      () => 'the events recorded meanwhile did not appear as skipped deliveries',
      200,
    );
    expect(skipped.map((d) => d.event_id).sort()).toEqual(missed.map((e) => e.id).sort());
    await sleep(500);
    expect(receiver.requests).toHaveLength(6);

    // Recovery needs the webhook re-enabled first.
    expect((await api.post(`/webhooks/${hook.id}/recover`, { since })).status).toBe(409);
    receiver.respondWith({ status: 200, body: 'back' });
    const reEnabled = await api.patch(`/webhooks/${hook.id}`, { active: true });
    expect(reEnabled.status).toBe(200);
    expect(reEnabled.body.data).toMatchObject({ status: 'enabled', failed_at: null, active: true });
    expect(await badge()).toBeUndefined();
    // ...and the move back into `enabled` is one too, with the webhook as the answer shows it.
    const [enabled] = (await monitor.waitFor(3)).slice(2).map(bodyOf);
    expect(enabled).toMatchObject({ type: 'webhook.enabled', data: reEnabled.body.data });
    // Re-enabling a webhook that is enabled already moves nothing and tells nothing.
    expect((await api.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(200);
    await sleep(300);
    expect(receiver.requests).toHaveLength(6); // re-enabling alone replays nothing

    // `since` is honoured: nothing was missed after now.
    const none = await api.post(`/webhooks/${hook.id}/recover`, { since: new Date().toISOString() });
    expect(none.status).toBe(202);
    expect(none.body.data).toMatchObject({ webhook_id: hook.id, requeued: 0, has_more: false });
    const recovered = await api.post(`/webhooks/${hook.id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toMatchObject({ webhook_id: hook.id, requeued: 3, has_more: false });
    const replayed = (await receiver.waitFor(9)).slice(6);
    await sleep(500);
    expect(receiver.requests).toHaveLength(9);
    // Each missed event once, with its original event id and body, as attempt 1 of a new sequence.
    expect(replayed.map((r) => header(r, 'x-service-event-id')).sort()).toEqual([event.id, ...missed.map((e) => e.id)].sort());
    for (const request of replayed) {
      const original = [event, ...missed].find((e) => e.id === header(request, 'x-service-event-id'));
      expect(JSON.parse(request.body)).toEqual(original);
      expect(header(request, 'x-service-attempt')).toBe('1');
      expect(verifyWebhookSignature(request.rawBody, header(request, 'x-service-signature'), hook.secret)).toBe(true);
    }
    const again = replayed.find((r) => header(r, 'x-service-event-id') === event.id) as ReceivedRequest;
    expect(header(again, 'x-service-delivery-id')).toBe(deliveryId);
    const done = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded');
    expect(done.sequence).toBe(2);
    expect(done.attempts).toHaveLength(7);
    expect(done.attempts[6]).toMatchObject({ sequence: 2, number: 1, status_code: 200, response_excerpt: 'back' });
    await eventually(
      async () => (await api.get(`/webhooks/${hook.id}/deliveries?status=succeeded`)).body.data.length === 3,
      5_000,
      () => 'the recovered deliveries did not all succeed',
      200,
    );
    // Nothing left to recover.
    expect((await api.post(`/webhooks/${hook.id}/recover`, { since })).body.data.requeued).toBe(0);
    await sleep(300);
    expect(receiver.requests).toHaveLength(9);
    expect(monitor.requests).toHaveLength(3);
  }, 180_000);
});
