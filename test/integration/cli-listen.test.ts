import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constructEvent } from '@project-automation-service/sdk';
import { eventPayload } from '../../functions/core/webhooks/event-payload';
import { startCli, stopClis } from './support/cli';
import { startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { recordEvent } from './support/webhooks';

/** `listen --forward-to`: events forwarded to a local URL, signed like deliveries, none lost or repeated across restarts. */
describe('npm run cli -- listen', () => {
  let receiver: Receiver;
  let stateDir: string;
  beforeAll(async () => {
    receiver = await startReceiver({ status: 204 });
    stateDir = await mkdtemp(join(tmpdir(), 'pas-listen-'));
  });
  afterAll(async () => {
    await stopClis();
    await receiver.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('forwards each new event once, in order, signed with the printed secret, and resumes where it stopped', async () => {
    const account = await newAccount();
    const accountId = account.account.id;
    const env = { SERVICE_CLI_STATE_DIR: stateDir };
    // Something happened before listen started: it is not forwarded.
    const before = await recordEvent(accountId, 'test', 'workflow.created');

    const first = startCli(account.test.key, ['listen', '--forward-to', receiver.url('/hooks')], env);
    const secret = (await first.waitForStderr(/signing secret is (whsec_[A-Za-z0-9_-]+)/))[1] as string;
    await first.waitForStderr(/Following events from now on/);
    const e1 = await recordEvent(accountId, 'test', 'workflow.started');
    const e2 = await recordEvent(accountId, 'test', 'workflow.completed');
    const [r1, r2] = await receiver.waitFor(2, 60_000);

    for (const [request, event] of [
      [r1, e1],
      [r2, e2],
    ] as const) {
      expect(request?.path).toBe('/hooks');
      // The event as stored, in a delivery's field order (the order inside `data` is the table's, as for deliveries).
      expect(JSON.parse(request?.body as string)).toEqual(event);
      expect(request?.body).toBe(eventPayload(JSON.parse(request?.body as string)));
      expect(request?.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'ProjectAutomationService-Webhooks/1.0',
        'x-service-event-id': event.id,
        'x-service-event-type': event.type,
        'x-service-attempt': '1',
      });
      expect(request?.headers['x-service-delivery-id']).toMatch(/^dlv_/);
      const verified = await constructEvent(request?.rawBody as Uint8Array, request?.headers['x-service-signature'] as string, secret);
      expect(verified.id).toBe(event.id);
    }
    expect(first.stdout()).toContain(`workflow.completed`);
    expect(first.stdout()).toContain('→ 204');
    expect(await first.interrupt()).toBe(130);

    // While listen is stopped, more happens; the restart forwards exactly that, with the same secret.
    const e3 = await recordEvent(accountId, 'test', 'workflow.stage.completed');
    const e4 = await recordEvent(accountId, 'test', 'workflow.failed');
    const second = startCli(
      account.test.key,
      ['listen', '--forward-to', receiver.url('/hooks'), '--events', 'workflow.failed,workflow.stage.completed'],
      env,
    );
    expect((await second.waitForStderr(/signing secret is (whsec_[A-Za-z0-9_-]+)/))[1]).toBe(secret);
    await second.waitForStderr(new RegExp(`Resuming after ${e2.id}`));
    await receiver.waitFor(4, 60_000);
    // Filtered out by --events, but passed over: never forwarded later either.
    const skipped = await recordEvent(accountId, 'test', 'workflow.completed');
    const e5 = await recordEvent(accountId, 'test', 'workflow.failed');
    await receiver.waitFor(5, 60_000);
    expect(await second.interrupt()).toBe(130);

    expect(receiver.requests.map((r) => r.headers['x-service-event-id'])).toEqual([e1.id, e2.id, e3.id, e4.id, e5.id]);
    expect(receiver.requests.map((r) => r.headers['x-service-event-id'])).not.toContain(before.id);
    expect(receiver.requests.map((r) => r.headers['x-service-event-id'])).not.toContain(skipped.id);
  });

  it('refuses a --forward-to that is not an http URL and an unknown event type, with exit status 2', async () => {
    const account = await newAccount();
    const bad = startCli(account.test.key, ['listen', '--forward-to', 'ftp://example.test/'], { SERVICE_CLI_STATE_DIR: stateDir });
    expect(await new Promise((resolve) => bad.child.once('exit', resolve))).toBe(2);
    expect(bad.stderr()).toContain('--forward-to must be an http:// or https:// URL');
    const unknown = startCli(account.test.key, ['listen', '--forward-to', receiver.url(), '--events', 'workflow.exploded'], {
      SERVICE_CLI_STATE_DIR: stateDir,
    });
    expect(await new Promise((resolve) => unknown.child.once('exit', resolve))).toBe(2);
    expect(unknown.stderr()).toContain('unknown event type workflow.exploded');
  });
});
