import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { dynamoDeliveryRepository } from '../../functions/adapters/dynamodb/delivery-repository';
import * as keys from '../../functions/adapters/dynamodb/table-keys';
import { isoTime } from '../../functions/core/clock';
import { createAccount, createCredential } from '../../functions/core/credentials/manage-credentials';
import { newId } from '../../functions/core/ids';
import { type Delivery, maxCarriedPayloadBytes } from '../../functions/core/webhooks/delivery';
import { notAttemptedMessage } from '../../functions/core/webhooks/dead-letters';
import { clientFor, processesMentioning, startChildRuntime, type ChildRuntime } from './support/child-runtime';
import { runtimeTables } from './support/runtime-tables';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';
import { as } from './support/http';
import { newAccount, runtimeTable } from './support/runtime';
import { createWebhook, recordEvent, waitForDelivery } from './support/webhooks';

/**
 * A delivery whose queue message is dead-lettered (the dispatcher failed on it 5 receives in a row)
 * ends `failed`, and can be sent again: its own runtime, with a visibility timeout of 0.2 s, so the
 * 5 receives take about a second. The dispatcher is made to fail on the retry of one delivery: its
 * event is larger than a message carries, and the test removes the event's item from the table
 * after the first attempt (a bug, as the dispatcher sees it), so every receive of the retry fails
 * before any claim. Before dead letters were settled, the delivery stayed pending for ever.
 */
let dataDir: string | undefined;
let runtime: ChildRuntime | undefined;
let receiver: Receiver | undefined;
let strandedReceiver: Receiver | undefined;
const tables = runtimeTables();

const header = (request: ReceivedRequest, name: string) => request.headers[name] as string | undefined;

afterAll(async () => {
  tables.closeAll();
  await runtime?.stop();
  await receiver?.close();
  await strandedReceiver?.close();
  if (dataDir) {
    const left = await processesMentioning(dataDir);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  }
}, 30_000);

describe('webhook delivery whose message is dead-lettered', () => {
  it('ends failed (attempt not made, webhook left enabled), and a redelivery sends it once the dispatcher can', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pas-dead-letters-'));
    receiver = await startReceiver((r) => (r.index === 1 ? { status: 500, body: 'not yet' } : { status: 200, body: 'thanks' }));
    const hooks = receiver;
    runtime = await startChildRuntime(dataDir, { LOCAL_VISIBILITY_TIMEOUT: '0.2' });

    const table = await tables.of(dataDir);
    const deps = adminDeps(table);
    const account = await createAccount({ email: `dead-letters-${Date.now()}@example.com` }, deps);
    const key = await createCredential(
      { accountId: account.id, type: 'test', name: 'dead letters', scopes: ['read:webhooks', 'write:webhooks'] },
      deps,
    );
    const api = clientFor(runtime.apiUrl, key.key);
    const created = await api.post('/webhooks', { url: hooks.url(), events: ['deployment.completed'] });
    expect(created.status).toBe(201);
    const hook = created.body.data as { id: string };

    // Too large for a queue message to carry: every attempt reads it from the table.
    const event = await recordEvent(
      account.id,
      'test',
      'deployment.completed',
      { id: 'dep_dead', status: 'completed', notes: 'x'.repeat(maxCarriedPayloadBytes + 1) },
      table,
    );
    const [first] = (await hooks.waitFor(1, 20_000)) as [ReceivedRequest];
    const deliveryId = header(first, 'x-service-delivery-id') as string;
    const deliveryPath = `/webhooks/${hook.id}/deliveries/${deliveryId}`;
    // Attempt 1 failed and is recorded; attempt 2 is due 5 s after it.
    await eventually(
      async () => {
        const d = (await api.get(deliveryPath)).body?.data;
        return d?.attempts?.length === 1 && d.status === 'pending' ? d : undefined;
      },
      10_000,
      () => 'attempt 1 was not recorded',
      100,
    );
    const eventKey = keys.event({ accountId: account.id, mode: 'test' }, event.id);
    const eventItem = (await table.client.send(new GetCommand({ TableName: table.tableName, Key: eventKey, ConsistentRead: true }))).Item;
    expect(eventItem).toBeDefined();
    await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: eventKey }));

    const ended = await eventually(
      async () => {
        const d = (await api.get(deliveryPath)).body?.data;
        return d?.status === 'failed' ? d : undefined;
      },
      30_000,
      () => 'the dead-lettered delivery did not end failed',
      100,
    );
    expect(ended).toMatchObject({ sequence: 1, attempt_count: 2, next_attempt_at: null });
    expect(ended.attempts).toEqual([
      expect.objectContaining({ sequence: 1, number: 1, status_code: 500, error: 'http_status' }),
      expect.objectContaining({
        sequence: 1,
        number: 2,
        url: null,
        status_code: null,
        error: 'not_attempted',
        error_message: notAttemptedMessage,
      }),
    ]);
    // Nothing was sent for attempt 2, and the receiver is not blamed: the webhook stays enabled.
    expect(hooks.requests).toHaveLength(1);
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ status: 'enabled' });
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=failed`)).body.data.map((d: { id: string }) => d.id)).toEqual([
      deliveryId,
    ]);

    // The bug fixed (the event readable again), the owner sends it again.
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: eventItem }));
    const redelivered = await api.post(`${deliveryPath}/redeliver`, {});
    expect(redelivered.status).toBe(202);
    const [, second] = (await hooks.waitFor(2, 20_000)) as [ReceivedRequest, ReceivedRequest];
    expect(header(second, 'x-service-event-id')).toBe(event.id);
    expect(header(second, 'x-service-attempt')).toBe('1');
    expect(JSON.parse(second.body)).toEqual(event);
    const done = await eventually(
      async () => {
        const d = (await api.get(deliveryPath)).body?.data;
        return d?.status === 'succeeded' ? d : undefined;
      },
      10_000,
      () => 'the redelivery did not succeed',
      100,
    );
    expect(done.attempts.map((a: { sequence: number; number: number; error: string | null }) => [a.sequence, a.number, a.error])).toEqual([
      [1, 1, 'http_status'],
      [1, 2, 'not_attempted'],
      [2, 1, null],
    ]);
    expect(hooks.requests).toHaveLength(2);
  }, 120_000);
});

/**
 * Deliveries stranded in tables before dead letters were settled (pending, their message gone) are
 * written as such into the shared runtime's table; `recover` must pick up those whose attempt is long
 * overdue, and only those.
 */
describe('a delivery stranded before dead letters were settled (shared runtime)', () => {
  it('is queued again by recover once its attempt is over 30 minutes overdue, and delivered once; a pending one that may still come is left', async () => {
    strandedReceiver = await startReceiver({ status: 200, body: 'ok' });
    const hooks = strandedReceiver;
    const { account, test } = await newAccount();
    const api = as(test.key);
    // Subscribed to another type: the fan-out makes no delivery of the event; the test writes them.
    const hook = await createWebhook(api, { url: hooks.url(), events: ['deployment.failed'] });
    const table = await runtimeTable();
    const tenant = { accountId: account.id, mode: 'test' as const };
    const event = await recordEvent(account.id, 'test', 'deployment.completed', { id: 'dep_stranded' }, table);
    const nowMs = Date.now();
    const pendingAt = (atMs: number): Delivery => ({
      id: newId('delivery', atMs),
      webhook_id: hook.id,
      event_id: event.id,
      event_type: event.type,
      status: 'pending',
      test: false,
      sequence: 1,
      attempt_count: 0,
      attempt_claimed_at: null,
      attempts: [],
      next_attempt_at: isoTime(atMs),
      created_at: isoTime(atMs),
      updated_at: isoTime(atMs),
    });
    // As a dead-lettered message left it: its first attempt due two hours ago, never claimed, no message left.
    const stranded = pendingAt(nowMs - 2 * 3_600_000);
    // Due a minute ago: its message may still come, so it is not restarted.
    const recent = pendingAt(nowMs - 60_000);
    const deliveries = dynamoDeliveryRepository(table);
    for (const delivery of [stranded, recent]) expect(await deliveries.create(tenant, delivery)).toBe(true);

    const recovered = await api.post(`/webhooks/${hook.id}/recover`, { since: isoTime(nowMs - 3 * 3_600_000) });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toMatchObject({ requeued: 1, has_more: false });
    const [request] = (await hooks.waitFor(1, 20_000)) as [ReceivedRequest];
    expect(header(request, 'x-service-delivery-id')).toBe(stranded.id);
    expect(header(request, 'x-service-event-id')).toBe(event.id);
    expect(header(request, 'x-service-attempt')).toBe('1');
    const done = await waitForDelivery(api, hook.id, stranded.id, (d) => d.status === 'succeeded');
    expect(done).toMatchObject({ sequence: 2, attempt_count: 1 });
    expect((await api.get(`/webhooks/${hook.id}/deliveries/${recent.id}`)).body.data).toMatchObject({
      status: 'pending',
      sequence: 1,
      attempt_count: 0,
    });
    // A second recover finds nothing more to do: the stranded one is delivered, the recent one may still come.
    expect((await api.post(`/webhooks/${hook.id}/recover`, { since: isoTime(nowMs - 3 * 3_600_000) })).body.data).toMatchObject({
      requeued: 0,
    });
    expect(hooks.requests).toHaveLength(1);
  }, 60_000);
});
