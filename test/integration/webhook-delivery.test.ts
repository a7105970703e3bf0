import { createHmac } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import * as keys from '../../functions/adapters/dynamodb/table-keys';
import { verifyWebhookSignature } from '../../functions/core/webhooks/signature';
import { as, call } from './support/http';
import {
  eventually,
  parseSignature,
  startReceiver,
  type Answer,
  type ReceivedRequest,
  type Receiver,
  type Responder,
} from './support/receiver';
import { newAccount, runtimeTable } from './support/runtime';
import { createWebhook, recordEvent, sleep, waitForDelivery } from './support/webhooks';

/**
 * Signed webhook deliveries, end to end: an event recorded through the transactional outbox is
 * fanned out by the runtime's stream poller and POSTed by its delivery queue to a real HTTP
 * receiver on 127.0.0.1. The shared runtime runs with LOCAL_TIME_SCALE=0.01, so the first retries
 * come 50 ms and 300 ms after a failed attempt.
 */

/** Computed here, independently of the service's signing code: HMAC-SHA256(secret, `${t}.${raw body}`). */
const independentV1 = (secret: string, t: number, rawBody: Buffer): string =>
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), rawBody]))
    .digest('hex');

const header = (request: ReceivedRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
};

/** The request is signed, now, with exactly these secrets (in this order). */
const expectSignedWith = (request: ReceivedRequest, secrets: string[]) => {
  const signature = parseSignature(request.headers['x-service-signature']);
  expect(signature.raw).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  expect(signature.v1).toEqual(secrets.map((secret) => independentV1(secret, signature.t, request.rawBody)));
  // Signed when sent, not when the event was recorded: the timestamp is the attempt's own.
  expect(Math.abs(signature.t - request.arrivedAt / 1000)).toBeLessThanOrEqual(2);
  for (const secret of secrets) expect(verifyWebhookSignature(request.rawBody, signature.raw, secret)).toBe(true);
  return signature;
};

const receivers: Receiver[] = [];
const receiver = async (answer?: Responder) => {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
};

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook delivery', () => {
  it('POSTs a recorded event once, signed, with its headers, and logs the delivery', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    const hooks = await receiver({ status: 200, body: '{"received":true}' });
    const hook = await createWebhook(api, { url: hooks.url('/events?source=pas'), events: ['workflow.completed'] });

    const event = await recordEvent(account.id, 'test', 'workflow.completed', {
      workflow_id: 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1E',
      status: 'completed',
      note: 'Déploiement ✓ 🚀 "quoted" \\ \u2028',
    });
    const [request] = (await hooks.waitFor(1)) as [ReceivedRequest];

    expect(request.method).toBe('POST');
    expect(request.path).toBe('/events?source=pas');
    // The body is the recorded event: { id, type, created_at, data } and nothing else. (The order of
    // the keys inside `data` is not kept by DynamoDB, and JSON gives it no meaning.)
    expect(JSON.parse(request.body)).toEqual(event);
    expect(Object.keys(JSON.parse(request.body))).toEqual(['id', 'type', 'created_at', 'data']);
    expect(JSON.parse(request.body)).toEqual((await api.get(`/events/${event.id}`)).body.data);

    expect(header(request, 'content-type')).toMatch(/^application\/json\b/);
    expect(header(request, 'user-agent')).toEqual(expect.stringMatching(/\S/));
    expect(header(request, 'x-service-event-id')).toBe(event.id);
    expect(header(request, 'x-service-event-type')).toBe('workflow.completed');
    expect(header(request, 'x-service-attempt')).toBe('1');
    expect(header(request, 'x-service-delivery-id')).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(Number(header(request, 'content-length'))).toBe(request.rawBody.length);
    expectSignedWith(request, [hook.secret]);
    // Stripe's own verifier accepts it too (DESIGN.md: Stripe's scheme).
    expect(
      new Stripe('sk_test_x').webhooks.constructEvent(request.rawBody, header(request, 'x-service-signature') as string, hook.secret),
    ).toEqual(event);
    // A receiver must not accept it with another secret, or with a changed body.
    expect(verifyWebhookSignature(request.rawBody, header(request, 'x-service-signature'), 'whsec_wrong')).toBe(false);
    expect(verifyWebhookSignature(request.body.replace('completed', 'failed'), header(request, 'x-service-signature'), hook.secret)).toBe(
      false,
    );

    // The delivery log.
    const deliveryId = header(request, 'x-service-delivery-id') as string;
    const delivery = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded');
    expect(delivery).toMatchObject({
      id: deliveryId,
      webhook_id: hook.id,
      event_id: event.id,
      event_type: 'workflow.completed',
      status: 'succeeded',
      test: false,
      sequence: 1,
      next_attempt_at: null,
    });
    expect(delivery).not.toHaveProperty('payload');
    expect(delivery.attempts).toEqual([
      {
        sequence: 1,
        number: 1,
        attempted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        url: hooks.url('/events?source=pas'),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        error_message: null,
        response_excerpt: '{"received":true}',
      },
    ]);
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(5_000);
    // Attempted at about the time the receiver saw it.
    expect(Math.abs(Date.parse(delivery.attempts[0].attempted_at) - request.arrivedAt)).toBeLessThan(2_000);

    const list = await api.get(`/webhooks/${hook.id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([delivery]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=succeeded`)).body.data).toEqual([delivery]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=failed`)).body.data).toEqual([]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?event_type=workflow.completed`)).body.data).toEqual([delivery]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?event_type=deployment.failed`)).body.data).toEqual([]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=succeeded&event_type=deployment.failed`)).body.data).toEqual([]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=lost`)).status).toBe(422);
    expect((await api.get(`/webhooks/${hook.id}/deliveries/dlv_01JD2Q9R7W3T0N8M4K6H5G2F1E`)).status).toBe(404);
    // Another account sees neither the webhook nor its deliveries.
    const stranger = as((await newAccount()).test.key);
    expect((await stranger.get(`/webhooks/${hook.id}/deliveries/${deliveryId}`)).status).toBe(404);

    // Exactly one request: a success is never retried (retries would come after 50 ms here).
    await sleep(700);
    expect(hooks.requests).toHaveLength(1);
  });

  it('reaches only the active webhooks of the same account and mode subscribed to the type', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const api = as(owner.test.key);
    const subscribed = await receiver();
    const wildcard = await receiver();
    const otherType = await receiver();
    const inactive = await receiver();
    const otherAccount = await receiver();
    const hookSubscribed = await createWebhook(api, { url: subscribed.url(), events: ['deployment.started', 'workflow.failed'] });
    await createWebhook(api, { url: wildcard.url(), events: ['*'] });
    const hookOtherType = await createWebhook(api, { url: otherType.url(), events: ['workflow.completed', 'deployment.failed'] });
    const hookInactive = await createWebhook(api, { url: inactive.url(), events: ['*'], active: false });
    await createWebhook(as(stranger.test.key), { url: otherAccount.url(), events: ['*'] });

    // An event of the live mode of the same account reaches none of these test-mode webhooks.
    const liveEvent = await recordEvent(owner.account.id, 'live', 'workflow.failed');
    const event = await recordEvent(owner.account.id, 'test', 'workflow.failed');
    await subscribed.waitFor(1);
    await wildcard.waitFor(1);
    // Give anything wrongly sent time to arrive (deliveries take a few ms here).
    await sleep(1_000);

    expect(subscribed.requests.map((r) => JSON.parse(r.body).id)).toEqual([event.id]);
    expect(wildcard.requests.map((r) => JSON.parse(r.body).id)).toEqual([event.id]);
    expect(otherType.requests).toHaveLength(0);
    expect(inactive.requests).toHaveLength(0);
    expect(otherAccount.requests).toHaveLength(0);
    expect(JSON.stringify([subscribed.requests, wildcard.requests].flat().map((r) => r.body))).not.toContain(liveEvent.id);
    // ...and the webhooks that were not called have no delivery either.
    expect((await api.get(`/webhooks/${hookOtherType.id}/deliveries`)).body.data).toEqual([]);
    expect((await api.get(`/webhooks/${hookInactive.id}/deliveries`)).body.data).toEqual([]);
    expect((await api.get(`/webhooks/${hookSubscribed.id}/deliveries`)).body.data).toHaveLength(1);

    // Deactivated after creation: nothing more arrives; reactivated: it does again.
    await api.patch(`/webhooks/${hookSubscribed.id}`, { active: false });
    const whilePaused = await recordEvent(owner.account.id, 'test', 'deployment.started');
    await wildcard.waitFor(2);
    await api.patch(`/webhooks/${hookSubscribed.id}`, { active: true });
    const afterResume = await recordEvent(owner.account.id, 'test', 'deployment.started');
    await subscribed.waitFor(2);
    await wildcard.waitFor(3);
    await sleep(300);
    expect(subscribed.requests.map((r) => JSON.parse(r.body).id)).toEqual([event.id, afterResume.id]);
    expect(wildcard.requests.map((r) => JSON.parse(r.body).id)).toEqual([event.id, whilePaused.id, afterResume.id]);
  });

  it('takes the delivery log of a deleted webhook with it, and nothing of another webhook', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    const hooks = await receiver();
    const deleted = await createWebhook(api, { url: hooks.url('/deleted'), events: ['workflow.completed'] });
    const kept = await createWebhook(api, { url: hooks.url('/kept'), events: ['workflow.completed'] });
    for (let i = 0; i < 3; i += 1) await recordEvent(account.id, 'test', 'workflow.completed');
    await hooks.waitFor(6);
    const logOf = async (id: string) => (await api.get(`/webhooks/${id}/deliveries`)).body.meta.total as number;
    await eventually(
      async () => (await logOf(deleted.id)) === 3 && (await logOf(kept.id)) === 3,
      15_000,
      () => 'deliveries not logged',
    );

    expect((await api.delete(`/webhooks/${deleted.id}`)).status).toBe(204);
    // The deletion reaches the table's stream; the deleted-webhooks function removes the rest.
    const table = await runtimeTable();
    const leftOf = async (id: string) =>
      (
        await table.client.send(
          new QueryCommand({
            TableName: table.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.deliveries({ accountId: account.id, mode: 'test' }, id) },
            ConsistentRead: true,
          }),
        )
      ).Count;
    await eventually(
      async () => (await leftOf(deleted.id)) === 0,
      15_000,
      () => 'the deleted webhook kept its deliveries',
    );
    // Its delivery count went too: only the kept webhook's three deliveries and its count remain.
    expect(await leftOf(kept.id)).toBe(4);
    expect(await logOf(kept.id)).toBe(3);
  });

  describe('retries a failed attempt with the same event, signed afresh', () => {
    const cases: { name: string; answer: Answer; expected: { status_code: number | null; error: string } }[] = [
      { name: '500', answer: { status: 500, body: 'boom' }, expected: { status_code: 500, error: 'http_status' } },
      { name: '410', answer: { status: 410, body: 'gone' }, expected: { status_code: 410, error: 'http_status' } },
      // Only the first 4 KiB of a response body are read and kept.
      {
        name: '502 with a 10 KB body',
        answer: { status: 502, body: 'x'.repeat(10_000) },
        expected: { status_code: 502, error: 'http_status' },
      },
      { name: 'a connection reset', answer: 'reset', expected: { status_code: null, error: 'connection' } },
    ];

    const retriedOnce = async (first: Answer | ((redirectTarget: Receiver) => Answer)) => {
      const { account, test } = await newAccount();
      const api = as(test.key);
      const redirectTarget = await receiver();
      const initial = typeof first === 'function' ? first(redirectTarget) : first;
      const hooks = await receiver((r) => (r.index === 1 ? initial : { status: 204 }));
      const hook = await createWebhook(api, { url: hooks.url(), events: ['*'] });
      const event = await recordEvent(account.id, 'test', 'security.finding.created');
      const [one, two] = (await hooks.waitFor(2, 25_000)) as [ReceivedRequest, ReceivedRequest];

      for (const request of [one, two]) {
        expect(header(request, 'x-service-event-id')).toBe(event.id);
        expect(header(request, 'x-service-event-type')).toBe('security.finding.created');
        expect(JSON.parse(request.body)).toEqual(event);
        expectSignedWith(request, [hook.secret]);
      }
      expect(two.rawBody.equals(one.rawBody)).toBe(true);
      expect(header(two, 'x-service-delivery-id')).toBe(header(one, 'x-service-delivery-id'));
      expect([header(one, 'x-service-attempt'), header(two, 'x-service-attempt')]).toEqual(['1', '2']);
      // Not before the first retry delay (5 s × 0.01) counted from the end of the failed attempt.
      expect(two.arrivedAt - (one.answeredAt ?? one.arrivedAt)).toBeGreaterThanOrEqual(50);

      const delivery = await waitForDelivery(api, hook.id, header(one, 'x-service-delivery-id') as string, (d) => d.status === 'succeeded');
      expect(delivery.attempts.map((a: { sequence: number; number: number }) => [a.sequence, a.number])).toEqual([
        [1, 1],
        [1, 2],
      ]);
      await sleep(500);
      expect(hooks.requests).toHaveLength(2);
      return { delivery, redirectTarget, requests: [one, two] };
    };

    it.each(cases)('after $name', async ({ answer, expected }) => {
      const { delivery } = await retriedOnce(answer);
      expect(delivery.attempts[0]).toMatchObject({ number: 1, ...expected, error_message: expect.any(String) });
      if (typeof answer === 'object') expect(delivery.attempts[0].response_excerpt).toBe(answer.body?.slice(0, 4096));
      expect(delivery.attempts[1]).toMatchObject({ number: 2, status_code: 204, error: null });
    });

    it('after a 301, without following the redirect', async () => {
      const { delivery, redirectTarget } = await retriedOnce((target) => ({ status: 301, headers: { Location: target.url('/moved') } }));
      expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: 301, error: 'http_status' });
      expect(redirectTarget.requests).toHaveLength(0);
    });

    it('after an attempt that got no answer within 10 s (timeout)', async () => {
      const { delivery, requests } = await retriedOnce('hang');
      const [one, two] = requests as [ReceivedRequest, ReceivedRequest];
      expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: null, error: 'timeout' });
      expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(9_900);
      expect(delivery.attempts[0].duration_ms).toBeLessThan(11_000);
      // The sender gave up on the hanging request after about 10 s and only then retried.
      expect(one.closedAt).toBeDefined();
      expect((one.closedAt as number) - one.arrivedAt).toBeGreaterThanOrEqual(9_800);
      expect(two.arrivedAt - one.arrivedAt).toBeGreaterThanOrEqual(10_000);
      // Signed afresh: 10 s later the timestamp, and so the signature, differ.
      const first = parseSignature(one.headers['x-service-signature']);
      const second = parseSignature(two.headers['x-service-signature']);
      expect(second.t - first.t).toBeGreaterThanOrEqual(9);
      expect(second.v1).not.toEqual(first.v1);
    }, 40_000);
  });

  it('a receiver that hangs does not hold up the deliveries of other webhooks', async () => {
    // First attempt at once (DESIGN.md) for everyone: one slow or dead receiver (here: of another
    // account) must not stall the others while its attempt waits out its 10 s timeout.
    const slowOwner = await newAccount();
    const owner = await newAccount();
    const slow = await receiver((r) => (r.index === 1 ? 'hang' : { status: 200 }));
    const fast = await receiver({ status: 200 });
    await createWebhook(as(slowOwner.test.key), { url: slow.url(), events: ['*'] });
    await createWebhook(as(owner.test.key), { url: fast.url(), events: ['*'] });

    await recordEvent(slowOwner.account.id, 'test', 'deployment.started');
    await slow.waitFor(1);
    const recordedAt = Date.now();
    const event = await recordEvent(owner.account.id, 'test', 'deployment.started');
    const [request] = (await fast.waitFor(1, 20_000)) as [ReceivedRequest];
    expect(header(request, 'x-service-event-id')).toBe(event.id);
    // Let the hanging attempt end and its retry succeed before the next test.
    await slow.waitFor(2, 20_000);
    // Observed locally: about 10 000 ms, the hanging attempt's timeout (see the report).
    expect(request.arrivedAt - recordedAt).toBeLessThan(2_000);
  }, 40_000);

  it('retries a delivery waiting for its next attempt now: a new sequence, sent at once; an attempt on its way is 409', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    // Four failures: attempt 5 is then due 30 min × 0.01 = 18 s after the 4th, time enough to retry it now.
    const hooks = await receiver((r) => (r.index <= 4 ? { status: 503, body: 'down' } : { status: 200 }));
    const hook = await createWebhook(api, { url: hooks.url(), events: ['*'] });
    await recordEvent(account.id, 'test', 'deployment.completed');
    const [first] = (await hooks.waitFor(4, 20_000)) as [ReceivedRequest];
    const deliveryId = header(first, 'x-service-delivery-id') as string;
    const waiting = await waitForDelivery(api, hook.id, deliveryId, (d) => d.attempts.length === 4 && d.status === 'pending');

    const retried = await api.post(`/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ status: 'pending', sequence: 2, attempt_count: 0 });
    const fifth = (await hooks.waitFor(5, 10_000))[4] as ReceivedRequest;
    expect([header(fifth, 'x-service-delivery-id'), header(fifth, 'x-service-attempt')]).toEqual([deliveryId, '1']);
    expect(fifth.arrivedAt).toBeLessThan(Date.parse(waiting.next_attempt_at));
    const delivered = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded');
    expect(delivered.attempts.map((a: { sequence: number; number: number }) => [a.sequence, a.number])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 1],
    ]);
  }, 60_000);

  it('sends a retry to the URL and with the secrets of its moment, and the log says where each attempt went', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    // Three failures: attempt 4 is then due 5 min × 0.01 = 3 s after the 3rd, time enough to change the webhook.
    const before = await receiver({ status: 503, body: 'down' });
    const after = await receiver({ status: 200, body: 'moved' });
    const hook = await createWebhook(api, { url: before.url('/old'), events: ['deployment.completed'] });
    const event = await recordEvent(account.id, 'test', 'deployment.completed');
    const [first] = (await before.waitFor(3, 20_000)) as [ReceivedRequest];
    const deliveryId = header(first, 'x-service-delivery-id') as string;
    const waiting = await waitForDelivery(api, hook.id, deliveryId, (d) => d.attempts.length === 3 && d.status === 'pending');

    expect((await api.patch(`/webhooks/${hook.id}`, { url: after.url('/new') })).status).toBe(200);
    const rotated = await api.post(`/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const [retry] = (await after.waitFor(1, 10_000)) as [ReceivedRequest];
    // Not early: the new URL got the scheduled retry, not a new sequence.
    expect(retry.arrivedAt).toBeGreaterThanOrEqual(Date.parse(waiting.next_attempt_at));
    expect([header(retry, 'x-service-event-id'), header(retry, 'x-service-delivery-id'), header(retry, 'x-service-attempt')]).toEqual([
      event.id,
      deliveryId,
      '4',
    ]);
    expect(retry.path).toBe('/new');
    expectSignedWith(retry, [rotated.body.data.secret, hook.secret]);
    expect(before.requests).toHaveLength(3);

    const done = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded');
    expect(done.attempts.map((a: { number: number; url: string; status_code: number }) => [a.number, a.url, a.status_code])).toEqual([
      [1, before.url('/old'), 503],
      [2, before.url('/old'), 503],
      [3, before.url('/old'), 503],
      [4, after.url('/new'), 200],
    ]);
  }, 60_000);

  it('POST /webhooks/{id}/test makes one signed attempt of an example event, never retried', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const hooks = await receiver({ status: 200, body: 'thanks' });
    const hook = await createWebhook(api, { url: hooks.url(), events: ['workflow.completed'] });
    const catalogue = (await call('GET', '/event-types')).body.data as { type: string; example: unknown }[];

    const ok = await api.post(`/webhooks/${hook.id}/test`, { event_type: 'deployment.failed' });
    expect(ok.status).toBe(202);
    expect(ok.body.data).toMatchObject({ webhook_id: hook.id, event_type: 'deployment.failed', status: 'succeeded', test: true });
    expect(ok.body.data.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: 200, error: null, response_excerpt: 'thanks' }),
    ]);
    // The attempt was made before the answer.
    expect(hooks.requests).toHaveLength(1);
    const [request] = hooks.requests as [ReceivedRequest];
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'deployment.failed',
      created_at: expect.any(String),
      data: catalogue.find((t) => t.type === 'deployment.failed')?.example,
    });
    expect(header(request, 'x-service-event-id')).toBe(body.id);
    expect(header(request, 'x-service-event-id')).toBe(ok.body.data.event_id);
    expect(header(request, 'x-service-delivery-id')).toBe(ok.body.data.id);
    expect(header(request, 'x-service-attempt')).toBe('1');
    expectSignedWith(request, [hook.secret]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries/${ok.body.data.id}`)).body.data).toEqual(ok.body.data);

    // A failing test attempt is recorded, but neither retried nor fatal to the webhook.
    hooks.respondWith({ status: 503, body: 'down' });
    const failed = await api.post(`/webhooks/${hook.id}/test`, { event_type: 'workflow.cancelled' });
    expect(failed.status).toBe(202);
    expect(failed.body.data).toMatchObject({ status: 'failed', test: true, next_attempt_at: null });
    expect(failed.body.data.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: 503, error: 'http_status', response_excerpt: 'down' }),
    ]);
    expect(hooks.requests).toHaveLength(2);
    await sleep(1_000); // retries would come after 50 and 300 ms here
    expect(hooks.requests).toHaveLength(2);
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ status: 'enabled', failed_at: null });
    expect((await api.get(`/webhooks/${hook.id}/deliveries/${failed.body.data.id}`)).body.data).toMatchObject({
      status: 'failed',
      attempts: [expect.any(Object)],
    });
    // A test delivery is not redelivered either.
    expect((await api.post(`/webhooks/${hook.id}/deliveries/${failed.body.data.id}/redeliver`)).status).toBe(409);
    await sleep(300);
    expect(hooks.requests).toHaveLength(2);

    expect((await api.post(`/webhooks/${hook.id}/test`, { event_type: 'workflow.exploded' })).status).toBe(422);
    expect((await api.post(`/webhooks/${hook.id}/test`, {})).status).toBe(422);
    expect(hooks.requests).toHaveLength(2);
  });

  it('POST /webhooks/{id}/test to a receiver that never answers answers 202 with the attempt’s timeout result', async () => {
    // The shared runtime bounds a test attempt at LOCAL_WEBHOOK_TEST_TIMEOUT_MS=2000 (10 s in AWS);
    // either way well inside the route's time limit, so the function's own timeout never fires.
    const { test } = await newAccount();
    const api = as(test.key);
    const silent = await receiver('hang');
    const hook = await createWebhook(api, { url: silent.url(), events: ['workflow.completed'] });

    const answer = await api.post(`/webhooks/${hook.id}/test`, { event_type: 'workflow.completed' });
    expect(answer.status).toBe(202);
    expect(answer.body.data).toMatchObject({ webhook_id: hook.id, status: 'failed', test: true, next_attempt_at: null });
    const [attempt] = answer.body.data.attempts as { duration_ms: number }[];
    expect(answer.body.data.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: null, error: 'timeout', error_message: 'no response within 2000 ms' }),
    ]);
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(1_900);
    expect(attempt?.duration_ms).toBeLessThan(10_000);
    // The receiver got the request, and the sender hung up on it when the attempt timed out.
    await silent.waitForClose(1);
    expect(silent.requests).toHaveLength(1);
    expect((await api.get(`/webhooks/${hook.id}/deliveries/${answer.body.data.id}`)).body.data).toEqual(answer.body.data);
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ status: 'enabled', failed_at: null });
  }, 30_000);

  it('redelivers a delivery: a new sequence of attempts of the same event', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    // The third request on is held 8 s: the redeliveries raced below all find that attempt pending.
    const hooks = await receiver((request) => (request.index >= 3 ? { status: 200, delayMs: 8_000 } : { status: 200 }));
    const hook = await createWebhook(api, { url: hooks.url(), events: ['*'] });
    const event = await recordEvent(account.id, 'test', 'review.completed');
    const [first] = (await hooks.waitFor(1)) as [ReceivedRequest];
    const deliveryId = header(first, 'x-service-delivery-id') as string;
    await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded');

    const again = await api.post(`/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ id: deliveryId, event_id: event.id, status: 'pending', sequence: 2 });
    const [, second] = (await hooks.waitFor(2)) as [ReceivedRequest, ReceivedRequest];
    expect(header(second, 'x-service-event-id')).toBe(event.id);
    expect(header(second, 'x-service-delivery-id')).toBe(deliveryId);
    expect(header(second, 'x-service-attempt')).toBe('1');
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expectSignedWith(second, [hook.secret]);

    const done = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded' && d.attempts.length === 2);
    expect(
      done.attempts.map((a: { sequence: number; number: number; status_code: number }) => [a.sequence, a.number, a.status_code]),
    ).toEqual([
      [1, 1, 200],
      [2, 1, 200],
    ]);
    await sleep(300);
    expect(hooks.requests).toHaveLength(2);
    expect((await api.post(`/webhooks/${hook.id}/deliveries/dlv_01JD2Q9R7W3T0N8M4K6H5G2F1E/redeliver`)).status).toBe(404);

    // Five redeliveries at once (a double click, a retrying script): one is sent, the others told 409
    // (while its attempt is pending, or by the conditional restart when they race to it).
    const racing = await Promise.all(Array.from({ length: 5 }, () => api.post(`/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`)));
    expect(racing.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409, 409]);
    const third = await waitForDelivery(api, hook.id, deliveryId, (d) => d.status === 'succeeded' && d.attempts.length === 3, 30_000);
    expect(third.sequence).toBe(3);
    await sleep(300);
    expect(hooks.requests).toHaveLength(3);
  });

  it('signs with the old and the new secret during a rotation, and with the new one alone after it', async () => {
    const { account, test } = await newAccount();
    const api = as(test.key);
    const hooks = await receiver({ status: 200 });
    const hook = await createWebhook(api, { url: hooks.url(), events: ['*'] });

    const rotated = await api.post(`/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.secret as string;
    expect(second).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(hook.secret);
    // The old one keeps signing for 24 h by default.
    expect(Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(rotated.body.data).not.toHaveProperty('previous_secret');
    expect(rotated.text).not.toContain(hook.secret);
    for (const answer of [await api.get(`/webhooks/${hook.id}`), await api.get('/webhooks')]) {
      expect(answer.text).not.toContain(second);
      expect(answer.text).not.toContain(hook.secret);
    }

    await recordEvent(account.id, 'test', 'deployment.completed');
    const [during] = (await hooks.waitFor(1)) as [ReceivedRequest];
    const both = expectSignedWith(during, [second, hook.secret]);
    expect(both.v1).toHaveLength(2);

    const ended = await api.post(`/webhooks/${hook.id}/rotate-secret`, { expires_in: 0 });
    expect(ended.status).toBe(200);
    const third = ended.body.data.secret as string;
    expect(third).not.toBe(second);
    expect(ended.body.data.previous_secret_expires_at).toBeNull();
    await recordEvent(account.id, 'test', 'deployment.completed');
    const [, after] = (await hooks.waitFor(2)) as [ReceivedRequest, ReceivedRequest];
    const one = expectSignedWith(after, [third]);
    expect(one.v1).toHaveLength(1);
    expect(verifyWebhookSignature(after.rawBody, one.raw, second)).toBe(false);
    expect(verifyWebhookSignature(after.rawBody, one.raw, hook.secret)).toBe(false);

    for (const answer of [await api.get(`/webhooks/${hook.id}`), await api.get(`/webhooks/${hook.id}/deliveries`)]) {
      expect(answer.text).not.toContain(third);
    }
    expect((await api.post(`/webhooks/${hook.id}/rotate-secret`, { expires_in: -1 })).status).toBe(422);
    expect((await api.post(`/webhooks/${hook.id}/rotate-secret`, { expires_in: 7 * 86_400 + 1 })).status).toBe(422);
  });
});
