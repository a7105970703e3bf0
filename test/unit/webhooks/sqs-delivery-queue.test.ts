import { createHash } from 'node:crypto';
import { sqsCall } from '../../../functions/adapters/aws/sqs-call';
import { maxSqsDelaySeconds, sqsDeliveryQueue } from '../../../functions/adapters/queue/sqs-delivery-queue';
import { type Clock, isoTime } from '../../../functions/core/clock';
import type { Tenant } from '../../../functions/core/tenancy';
import type { DeliveryMessage } from '../../../functions/core/webhooks/delivery';
import { dispatchDelivery, type DispatchDeps, type SendAttempt } from '../../../functions/core/webhooks/dispatch';
import { inMemoryAccountRepository } from '../fakes/account-repository';
import {
  type Answer,
  type ReceivedRequest,
  startAwsEndpointServer,
  testCredentials,
  verifiedSignature,
} from '../fakes/aws-endpoint-server';
import {
  deliveryAt,
  eventOfDeliveryAt,
  inMemoryDeliveries,
  inMemoryEvents,
  inMemoryWebhooks,
  webhookAt,
} from '../fakes/webhook-repositories';
import { controlledClock, startOfTests } from '../fakes/clock';

/**
 * The real SQS adapter and the real dispatcher, with SQS itself replaced by a stand-in for its JSON
 * endpoint on 127.0.0.1: SQS delays a message 15 minutes at most, so the 30 min and 2 h retries
 * come back early and must be sent again, with what remains of their delay, until they are due.
 */

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };
const second = 1_000;
const minute = 60 * second;

interface SendMessageInput {
  QueueUrl: string;
  MessageBody: string;
  DelaySeconds?: number;
}

interface SendMessageBatchInput {
  QueueUrl: string;
  Entries: (Omit<SendMessageInput, 'QueueUrl'> & { Id: string })[];
}

interface Sent {
  input: SendMessageInput;
  sentAt: number;
  message: DeliveryMessage;
}

const md5Of = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');
const json = (body: unknown): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: JSON.stringify(body),
});

/**
 * SQS's SendMessage and SendMessageBatch as its JSON protocol serves them, recording what it was
 * given with the time of each send. `refuse` names, per batch, the entry ids SQS reports as Failed.
 */
const startSqs = async (clock: Clock, refuse: (batchNumber: number) => string[] = () => []) => {
  const sent: Sent[] = [];
  const batches: SendMessageBatchInput[] = [];
  const server = await startAwsEndpointServer((request: ReceivedRequest) => {
    const target = request.headers['x-amz-target'];
    if (target === 'AmazonSQS.SendMessage') {
      const input = JSON.parse(request.body) as SendMessageInput;
      sent.push({ input, sentAt: clock.now(), message: JSON.parse(input.MessageBody) as DeliveryMessage });
      return json({ MessageId: `m-${sent.length}`, MD5OfMessageBody: md5Of(input.MessageBody) });
    }
    if (target === 'AmazonSQS.SendMessageBatch') {
      const input = JSON.parse(request.body) as SendMessageBatchInput;
      batches.push(input);
      const refused = refuse(batches.length);
      return json({
        Successful: input.Entries.filter((entry) => !refused.includes(entry.Id)).map((entry) => ({
          Id: entry.Id,
          MessageId: `b-${batches.length}-${entry.Id}`,
          MD5OfMessageBody: md5Of(entry.MessageBody),
        })),
        Failed: refused.map((id) => ({ Id: id, Code: 'InternalError', SenderFault: false })),
      });
    }
    return { status: 400, headers: { 'x-amzn-ErrorType': 'UnknownOperationException' }, body: '{}' };
  });
  const queueUrl = `${server.endpoint}/123456789012/deliveries`;
  // No endpoint variable: the calls go to the queue URL's origin, as the SDK's useQueueUrlAsEndpoint.
  const queue = sqsDeliveryQueue(queueUrl, clock, sqsCall(queueUrl, { env: { AWS_REGION: 'eu-west-1' }, credentials: testCredentials }));
  return { server, queueUrl, queue, sent, batches };
};

let stopServers: (() => Promise<void>)[] = [];
const sqsFor = async (clock: Clock, refuse?: (batchNumber: number) => string[]) => {
  const sqs = await startSqs(clock, refuse);
  stopServers.push(sqs.server.close);
  return sqs;
};

afterEach(async () => {
  await Promise.all(stopServers.map((stop) => stop()));
  stopServers = [];
});

interface Scenario {
  /** How long each HTTP attempt takes: retry delays count from its end. */
  attemptMs: number;
  /** How late after its delay SQS hands a message over. */
  receiveLatencyMs: number;
}

/**
 * A delivery whose target always fails, run through the real dispatcher and the real SQS adapter
 * until the queue is empty. Every message is received when SQS would make it visible.
 */
const runFailingDelivery = async ({ attemptMs, receiveLatencyMs }: Scenario) => {
  const clock = controlledClock();
  const { sent, queue, queueUrl } = await sqsFor(clock);
  const webhooks = inMemoryWebhooks();
  const deliveries = inMemoryDeliveries(webhooks);
  const accounts = inMemoryAccountRepository();
  await accounts.create({ id: tenant.accountId, email: 'owner@example.com', created_at: isoTime(clock.now()) });
  const events = inMemoryEvents();
  await webhooks.create(tenant, webhookAt(clock.now()));
  await events.record(tenant, eventOfDeliveryAt(clock.now()));
  await deliveries.create(tenant, deliveryAt(clock.now()));

  const attempts: { at: number; attempt: string | undefined; deliveryId: string | undefined }[] = [];
  const send: SendAttempt = async ({ headers }) => {
    attempts.push({ at: clock.now(), attempt: headers['X-Service-Attempt'], deliveryId: headers['X-Service-Delivery-Id'] });
    clock.advance(attemptMs);
    return { ok: false, statusCode: 503, durationMs: attemptMs, error: 'http_status', errorMessage: 'HTTP 503', responseExcerpt: '' };
  };
  const mails: { to: string; subject: string }[] = [];
  const deps: DispatchDeps = {
    webhooks,
    events,
    deliveries,
    deletedWebhookDeliveries: deliveries,
    accounts,
    queue,
    mailer: { send: async (mail) => void mails.push(mail) },
    send,
    clock,
    policyFor: () => ({ requireHttps: true, allowPrivate: false }),
    userAgent: 'test',
    delayScale: 1,
  };

  // What fan-out sends for a new delivery: the first attempt, due at once.
  await queue.send({
    account_id: tenant.accountId,
    mode: tenant.mode,
    webhook_id: 'wh_1',
    delivery_id: 'dlv_1',
    event_id: 'evt_1',
    sequence: 1,
    attempt: 1,
    not_before: clock.now(),
  });

  /** Each received message, with whether the dispatcher made an HTTP attempt for it. */
  const receipts: { message: DeliveryMessage; at: number; attempted: boolean }[] = [];
  for (let next = 0; next < sent.length; next += 1) {
    if (next > 50) throw new Error('the queue never empties');
    const { input, sentAt, message } = sent[next]!;
    clock.set(Math.max(clock.now(), sentAt + (input.DelaySeconds ?? 0) * second + receiveLatencyMs));
    const before = attempts.length;
    const at = clock.now();
    await dispatchDelivery(message, deps);
    receipts.push({ message, at, attempted: attempts.length > before });
  }
  const delivery = await deliveries.get(tenant, 'wh_1', 'dlv_1');
  const webhook = await webhooks.get(tenant, 'wh_1');
  return { sent, attempts, receipts, mails, delivery, webhook, queueUrl };
};

describe('sqsDeliveryQueue', () => {
  const messageDue = (clock: Clock, inMs: number): DeliveryMessage => ({
    account_id: 'acct_1',
    mode: 'test',
    webhook_id: 'wh_1',
    delivery_id: 'dlv_1',
    sequence: 2,
    attempt: 3,
    not_before: clock.now() + inMs,
  });

  it.each([
    ['due now', 0, 0],
    ['due 5 s from now', 5 * second, 5],
    ['due 30 s from now', 30 * second, 30],
    ['due 5 min from now', 5 * minute, 300],
    ['due 15 min from now', 15 * minute, 900],
    ['due 30 min from now', 30 * minute, 900],
    ['due 2 h from now', 120 * minute, 900],
    ['overdue by a minute', -minute, 0],
    ['due 4.001 s from now (rounded up, never early)', 4_001, 5],
  ])('delays a message %s by the right number of seconds', async (_what, inMs, delaySeconds) => {
    const clock = controlledClock();
    const { sent, queue, queueUrl, server } = await sqsFor(clock);
    const message = messageDue(clock, inMs);

    await queue.send(message);

    expect(server.received).toHaveLength(1);
    expect(sent[0]!.input).toEqual({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delaySeconds });
    expect(sent[0]!.input.DelaySeconds).toBeLessThanOrEqual(maxSqsDelaySeconds);
    expect(maxSqsDelaySeconds).toBe(900);
  });

  it("sends SQS's SendMessage as its SDK does: JSON 1.0, AmazonSQS target, query mode, signed for sqs in the region", async () => {
    const clock = controlledClock();
    const { queue, server } = await sqsFor(clock);

    await queue.send(messageDue(clock, 0));

    const [request] = server.received;
    expect(request).toMatchObject({ method: 'POST', path: '/' });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'AmazonSQS.SendMessage',
      'x-amzn-query-mode': 'true',
    });
    const signedHeaders = await verifiedSignature(request!, { service: 'sqs', region: 'eu-west-1' });
    expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-target', 'content-type']));
  });

  it('sends many messages 10 per batch, each with its delay, and sends again alone what a batch refused', async () => {
    const clock = controlledClock();
    // The first batch's third entry is refused (SQS answers 200 with a Failed list).
    const { sent: single, batches, queue, server } = await sqsFor(clock, (batch) => (batch === 1 ? ['2'] : []));
    const messages: DeliveryMessage[] = Array.from({ length: 23 }, (_, i) => ({
      account_id: 'acct_1',
      mode: 'test',
      webhook_id: 'wh_1',
      delivery_id: `dlv_${i}`,
      sequence: 1,
      attempt: 1,
      not_before: clock.now() + i * second,
    }));

    await queue.sendMany!(messages);

    expect(batches.map((batch) => batch.Entries.length)).toEqual([10, 10, 3]);
    const entries = batches.flatMap((batch) => batch.Entries);
    expect(entries.map((entry) => JSON.parse(entry.MessageBody) as DeliveryMessage)).toEqual(messages);
    expect(entries.map((entry) => entry.DelaySeconds)).toEqual(messages.map((_, i) => i));
    expect(single.map((s) => s.message)).toEqual([messages[2]]);
    expect(server.received.filter((r) => r.headers['x-amz-target'] === 'AmazonSQS.SendMessageBatch')).toHaveLength(3);
  });

  it('refuses an answer whose body digest differs from what was sent, as the SDK does', async () => {
    const clock = controlledClock();
    const server = await startAwsEndpointServer([json({ MessageId: 'm-1', MD5OfMessageBody: md5Of('something else') })]);
    stopServers.push(server.close);
    const queueUrl = `${server.endpoint}/123456789012/deliveries`;
    const queue = sqsDeliveryQueue(queueUrl, clock, sqsCall(queueUrl, { env: { AWS_REGION: 'eu-west-1' }, credentials: testCredentials }));

    await expect(queue.send(messageDue(clock, 0))).rejects.toThrow(/different body digest/);
  });

  it("throws SQS's error by its type (query-compatible JSON error), and retries throttling", async () => {
    const clock = controlledClock();
    const missing = await startAwsEndpointServer([
      {
        status: 400,
        headers: { 'x-amzn-query-error': 'AWS.SimpleQueueService.NonExistentQueue;Sender' },
        body: JSON.stringify({ __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' }),
      },
    ]);
    const throttled = await startAwsEndpointServer([
      { status: 400, body: JSON.stringify({ __type: 'com.amazonaws.sqs#RequestThrottled', message: 'Slow down' }) },
      json({ MessageId: 'm-1', MD5OfMessageBody: md5Of(JSON.stringify(messageDue(clock, 0))) }),
    ]);
    stopServers.push(missing.close, throttled.close);
    const queueAt = (endpoint: string) => {
      const queueUrl = `${endpoint}/123456789012/deliveries`;
      return sqsDeliveryQueue(
        queueUrl,
        clock,
        sqsCall(queueUrl, { env: { AWS_REGION: 'eu-west-1' }, credentials: testCredentials, baseDelayMs: 1 }),
      );
    };

    await expect(queueAt(missing.endpoint).send(messageDue(clock, 0))).rejects.toMatchObject({
      name: 'QueueDoesNotExist',
      message: 'The specified queue does not exist.',
    });
    expect(missing.received).toHaveLength(1);

    await queueAt(throttled.endpoint).send(messageDue(clock, 0));
    expect(throttled.received).toHaveLength(2);
  });
});

describe('dispatchDelivery through SQS, with a target that always fails', () => {
  it('queues attempts at once, then 5 s, 30 s, 5 min, 30 min and 2 h after the failures, re-delaying past 15 min', async () => {
    const { sent, attempts, receipts, queueUrl } = await runFailingDelivery({ attemptMs: 0, receiveLatencyMs: 0 });

    expect(sent.map((s) => [s.message.attempt, s.input.DelaySeconds])).toEqual([
      [1, 0],
      [2, 5],
      [3, 30],
      [4, 300],
      // 30 min: 15 min of SQS delay, received early, sent again for the other 15 min.
      [5, 900],
      [5, 900],
      // 2 h: the first 15 min and seven re-delays of 15 min each.
      ...Array.from({ length: 8 }, () => [6, 900]),
    ]);
    for (const s of sent) expect(s.input.QueueUrl).toBe(queueUrl);

    // The HTTP attempts happen exactly when due, counted from the end of the failed attempt before.
    expect(attempts.map((a) => [a.attempt, (a.at - startOfTests) / second])).toEqual([
      ['1', 0],
      ['2', 5],
      ['3', 35],
      ['4', 335],
      ['5', 335 + 1800],
      ['6', 335 + 1800 + 7200],
    ]);
    expect(new Set(attempts.map((a) => a.deliveryId))).toEqual(new Set(['dlv_1']));
    // Every message received before its time was sent on, with no attempt.
    expect(receipts.filter((r) => !r.attempted).map((r) => r.message.attempt)).toEqual([5, 6, 6, 6, 6, 6, 6, 6]);
    for (const receipt of receipts.filter((r) => !r.attempted)) expect(receipt.at).toBeLessThan(receipt.message.not_before);
  });

  it('sends an early message on unchanged: same delivery, sequence, attempt and due time', async () => {
    const { sent } = await runFailingDelivery({ attemptMs: 0, receiveLatencyMs: 0 });

    for (const attempt of [5, 6]) {
      const copies = sent.filter((s) => s.message.attempt === attempt);
      expect(copies.length).toBeGreaterThan(1);
      for (const copy of copies) {
        expect(copy.message).toEqual(copies[0]!.message);
        expect(copy.message).toMatchObject({
          delivery_id: 'dlv_1',
          webhook_id: 'wh_1',
          sequence: 1,
          attempt,
          account_id: tenant.accountId,
          mode: tenant.mode,
        });
        // Each copy asks for what remains of the delay, 15 min at most.
        expect(copy.input.DelaySeconds).toBe(Math.min(900, Math.ceil((copy.message.not_before - copy.sentAt) / second)));
      }
    }
  });

  it('processes the 30 min retry at 30 min: one re-delay after 15 min, then the attempt', async () => {
    const { sent, receipts } = await runFailingDelivery({ attemptMs: 0, receiveLatencyMs: 0 });

    const fourthEnd = startOfTests + 335 * second;
    const fifth = receipts.filter((r) => r.message.attempt === 5);
    expect(fifth.map((r) => [(r.at - fourthEnd) / minute, r.attempted])).toEqual([
      [15, false],
      [30, true],
    ]);
    expect(sent.filter((s) => s.message.attempt === 5).map((s) => (s.sentAt - fourthEnd) / minute)).toEqual([0, 15]);
  });

  it('processes the 2 h retry at 2 h: received every 15 min before that, never attempted early', async () => {
    const { receipts } = await runFailingDelivery({ attemptMs: 0, receiveLatencyMs: 0 });

    const fifthEnd = startOfTests + (335 + 1800) * second;
    const sixth = receipts.filter((r) => r.message.attempt === 6);
    expect(sixth.map((r) => (r.at - fifthEnd) / minute)).toEqual([15, 30, 45, 60, 75, 90, 105, 120]);
    expect(sixth.map((r) => r.attempted)).toEqual([false, false, false, false, false, false, false, true]);
  });

  it('with slow attempts and SQS handing messages over late, the last re-delay is shorter and no attempt is early', async () => {
    const { sent, attempts, receipts } = await runFailingDelivery({ attemptMs: 1_500, receiveLatencyMs: 250 });

    // 30 min: 900 s, then 899.75 s remain (rounded up); 2 h: the 250 ms lost per hand-over add up.
    expect(sent.filter((s) => s.message.attempt === 5).map((s) => s.input.DelaySeconds)).toEqual([900, 900]);
    expect(sent.filter((s) => s.message.attempt === 6).map((s) => s.input.DelaySeconds)).toEqual([900, 900, 900, 900, 900, 900, 900, 899]);

    for (const receipt of receipts) {
      expect(receipt.attempted).toBe(receipt.at >= receipt.message.not_before);
    }
    // Each retry's delay is counted from the end of the attempt before it; the hand-overs make
    // it later (by 250 ms each, the 2 h one by 1 s over its 8 hand-overs), never earlier.
    const gaps = attempts.slice(1).map((a, i) => a.at - (attempts[i]!.at + 1_500));
    expect(gaps).toEqual([5_250, 30_250, 300_250, 1_800_500, 7_201_000]);
  });

  it('after the sixth failed attempt, fails the delivery and the webhook, e-mails the owner once and queues nothing more', async () => {
    const { sent, attempts, mails, delivery, webhook } = await runFailingDelivery({ attemptMs: 0, receiveLatencyMs: 0 });

    expect(attempts).toHaveLength(6);
    expect(sent.at(-1)!.message.attempt).toBe(6);
    expect(sent.at(-1)!.sentAt).toBeLessThan(attempts.at(-1)!.at);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 6, next_attempt_at: null });
    expect(delivery!.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(webhook).toMatchObject({ status: 'failed' });
    expect(mails.map((m) => m.to)).toEqual(['owner@example.com']);
  });
});
