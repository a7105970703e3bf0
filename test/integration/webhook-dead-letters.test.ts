import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { createDocumentClient, type TableRef } from '../../functions/adapters/dynamodb/client';
import * as keys from '../../functions/adapters/dynamodb/table-keys';
import { createAccount, createCredential } from '../../functions/core/credentials/manage-credentials';
import { maxCarriedPayloadBytes } from '../../functions/core/webhooks/delivery';
import { notAttemptedMessage } from '../../functions/core/webhooks/dead-letters';
import { readRuntimeInfo } from '../../lib/local/runtime-file';
import { clientFor, processesMentioning, startChildRuntime, type ChildRuntime } from './support/child-runtime';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';
import { recordEvent } from './support/webhooks';

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
const tables: TableRef[] = [];

const tableOf = async (dir: string): Promise<TableRef> => {
  const info = await readRuntimeInfo(dir);
  if (!info) throw new Error(`no running runtime in ${dir}`);
  const table = {
    client: createDocumentClient({
      endpoint: info.dynamodbEndpoint,
      region: info.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    tableName: info.tableName,
  };
  tables.push(table);
  return table;
};

const header = (request: ReceivedRequest, name: string) => request.headers[name] as string | undefined;

afterAll(async () => {
  for (const table of tables) table.client.destroy();
  await runtime?.stop();
  await receiver?.close();
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

    const table = await tableOf(dataDir);
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
