import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { createAccount, createCredential } from '../../functions/core/credentials/manage-credentials';
import { verifyWebhookSignature } from '../../functions/core/webhooks/signature';
import { clientFor, processesMentioning, startChildRuntime, type ChildRuntime } from './support/child-runtime';
import { runtimeTables } from './support/runtime-tables';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';
import { recordEvent } from './support/webhooks';

/**
 * A pending retry survives a restart of the local runtime: its own runtime (not the shared one),
 * on disk, with LOCAL_TIME_SCALE=0.01, so the retries after 5 s, 30 s, 5 min and 30 min come after
 * 50 ms, 300 ms, 3 s and 18 s. The receiver fails the first 4 attempts; the runtime is stopped
 * right after the 4th and started again on the same data: the 5th attempt, due 18 s after the 4th
 * ended, must come once, never before it is due, with nothing else to wake it. The restart takes
 * about 3 to 6 s idle (JVM and DynamoDB Local included), so the retry is usually still ahead; on a
 * busy machine it may be overdue by then, and must then go out at start-up: either way it was
 * kept, and the test waits for the attempt rather than assuming which.
 */
const scale = 0.01;
const fifthAttemptGapMs = 1_800_000 * scale; // after attempt 4 fails: the 30 min retry

let dataDir: string | undefined;
let runtime: ChildRuntime | undefined;
let receiver: Receiver | undefined;
const tables = runtimeTables();

const header = (request: ReceivedRequest, name: string) => request.headers[name] as string | undefined;

afterAll(async () => {
  tables.closeAll();
  await runtime?.stop();
  await receiver?.close();
  if (dataDir) {
    // The runtime stops its DynamoDB Local; make sure no java process of this data directory is left.
    const left = await processesMentioning(dataDir);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  }
}, 30_000);

describe('webhook delivery across a restart', () => {
  it('keeps a pending retry: not lost, not early, no attempt repeated, then delivered', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pas-restart-'));
    const env = { LOCAL_TIME_SCALE: String(scale) };
    receiver = await startReceiver((r) => (r.index <= 4 ? { status: 500, body: `failure ${r.index}` } : { status: 200, body: 'finally' }));
    const hooks = receiver;

    runtime = await startChildRuntime(dataDir, env);
    // The first start creates the default account and shows its keys, once.
    expect(runtime.output()).toMatch(/test key: svc_test_/);

    const table = await tables.of(dataDir);
    const deps = adminDeps(table);
    const account = await createAccount({ email: `restart-${Date.now()}@example.com` }, deps);
    const key = await createCredential(
      { accountId: account.id, type: 'test', name: 'restart test', scopes: ['read:webhooks', 'write:webhooks'] },
      deps,
    );
    const before = clientFor(runtime.apiUrl, key.key);
    const created = await before.post('/webhooks', { url: hooks.url(), events: ['deployment.completed'] });
    expect(created.status).toBe(201);
    const hook = created.body.data as { id: string; secret: string };

    const event = await recordEvent(account.id, 'test', 'deployment.completed', { id: 'dep_9', status: 'completed' }, table);
    await hooks.waitFor(4, 20_000);
    const deliveryId = header(hooks.requests[0] as ReceivedRequest, 'x-service-delivery-id') as string;
    // Attempt 4's failure is recorded and the 5th attempt announced.
    const pending = await eventually(
      async () => {
        const d = (await before.get(`/webhooks/${hook.id}/deliveries/${deliveryId}`)).body?.data;
        return d?.attempts?.length === 4 && d.status === 'pending' ? d : undefined;
      },
      10_000,
      () => 'attempt 4 was not recorded',
      100,
    );
    const fourth = hooks.requests[3] as ReceivedRequest;
    const dueAt = Date.parse(pending.next_attempt_at);
    expect(dueAt - (fourth.answeredAt as number)).toBeGreaterThanOrEqual(fifthAttemptGapMs);

    // Stop it (as Ctrl-C would) and start it again on the same data.
    tables.closeAll();
    const stopped = await runtime.stop();
    expect(stopped).toEqual({ code: 0, signal: null });
    const stoppedAt = Date.now();
    await expect(stat(join(dataDir, 'runtime.json'))).rejects.toThrow();
    expect(await processesMentioning(dataDir)).toEqual([]); // its DynamoDB Local is gone too
    expect(hooks.requests).toHaveLength(4);

    runtime = await startChildRuntime(dataDir, env);
    // The second start reuses the stored account: no keys are shown.
    expect(runtime.output()).not.toMatch(/key: svc_/);
    expect(runtime.output()).toMatch(/kept across restarts/);
    // Nothing was sent while the runtime was down.
    expect(hooks.requests.slice(4).every((request) => request.arrivedAt >= stoppedAt)).toBe(true);

    // No other event is recorded: only the kept retry can make the 5th attempt.
    const [fifth] = (await hooks.waitFor(5, fifthAttemptGapMs + 60_000)).slice(4) as [ReceivedRequest];
    // Not early: no sooner than the scheduled gap after the 4th attempt ended, and not before its announced time.
    expect(fifth.arrivedAt - (fourth.answeredAt as number)).toBeGreaterThanOrEqual(fifthAttemptGapMs);
    expect(fifth.arrivedAt).toBeGreaterThanOrEqual(dueAt);
    expect(header(fifth, 'x-service-attempt')).toBe('5');
    expect(header(fifth, 'x-service-event-id')).toBe(event.id);
    expect(header(fifth, 'x-service-delivery-id')).toBe(deliveryId);
    expect(JSON.parse(fifth.body)).toEqual(event);
    expect(verifyWebhookSignature(fifth.rawBody, header(fifth, 'x-service-signature'), hook.secret)).toBe(true);

    const after = clientFor(runtime.apiUrl, key.key);
    const done = await eventually(
      async () => {
        const d = (await after.get(`/webhooks/${hook.id}/deliveries/${deliveryId}`)).body?.data;
        return d?.status === 'succeeded' ? d : undefined;
      },
      10_000,
      () => 'the delivery did not succeed after the restart',
      100,
    );
    expect(
      done.attempts.map((a: { sequence: number; number: number; status_code: number }) => [a.sequence, a.number, a.status_code]),
    ).toEqual([
      [1, 1, 500],
      [1, 2, 500],
      [1, 3, 500],
      [1, 4, 500],
      [1, 5, 200],
    ]);
    expect(done.attempts[4].response_excerpt).toBe('finally');
    expect((await after.get(`/webhooks/${hook.id}`)).body.data).toMatchObject({ status: 'enabled' });

    // Exactly five requests, numbered 1 to 5, all of the same event, when the delivery reads
    // succeeded: nothing repeated by the restart (a repeat would have to claim an attempt the
    // record already holds).
    expect(hooks.requests.map((r) => header(r, 'x-service-attempt'))).toEqual(['1', '2', '3', '4', '5']);
    expect(new Set(hooks.requests.map((r) => header(r, 'x-service-event-id')))).toEqual(new Set([event.id]));
  }, 120_000);
});
