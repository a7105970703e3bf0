import { as, type ApiAnswer } from './support/http';
import { startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { createWebhook } from './support/webhooks';
import {
  completedDeployment,
  deploy,
  deploymentEvents,
  deploymentId,
  type DeployTarget,
  hookConfig,
  hookSecret,
  newProject,
  releaseAnswer,
  startDeployTarget,
  waitForDeployment,
  waitForEvents,
} from './support/deployments';
import { fixtureRepository, injectFaults, waitForWorkflow } from './support/workflows';

/**
 * Deployments over real HTTP against the local runtime (LOCAL_WAIT_SCALE=0.01): the deploy-hook
 * provider against a real signed hook and health endpoint on 127.0.0.1, the deployment state
 * machine (deploy, health checks until the deadline, automatic rollback), requested rollbacks,
 * the one-in-progress rule, validation and listing.
 */
const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const healthDeadlineMessage = 'The deployment did not answer healthy before its health deadline; see health_checks.';

type Api = ReturnType<typeof as>;

/** Every answer's text, to check that the secret never appears in any of them. */
const recording = (api: Api, texts: string[]): Api => {
  const keep = async <T>(answer: Promise<ApiAnswer<T>>) => {
    const done = await answer;
    texts.push(done.text);
    return done;
  };
  return {
    get: (path, options) => keep(api.get(path, options)),
    post: (path, json, options) => keep(api.post(path, json, options)),
    patch: (path, json, options) => keep(api.patch(path, json, options)),
    delete: (path, options) => keep(api.delete(path, options)),
  };
};

const expectError = (answer: ApiAnswer, status: number, code: string) => {
  expect([answer.status, answer.body?.error?.code]).toEqual([status, code]);
};

/** A 422 naming `field` (in `details` or among `errors`). */
const expectInvalid = (answer: ApiAnswer, field: string, issue?: RegExp) => {
  expectError(answer, 422, 'validation_error');
  const issues = [answer.body.error.details, ...(answer.body.error.errors ?? [])].filter(Boolean);
  const named = issues.filter((i: { field: string }) => i.field === field);
  expect([field, named.length > 0, answer.text]).toEqual([field, true, answer.text]);
  if (issue) expect(named.map((i: { issue: string }) => i.issue).join(' | ')).toMatch(issue);
};

const targets: DeployTarget[] = [];
const receivers: Receiver[] = [];
const target = async (options?: Parameters<typeof startDeployTarget>[0]) => {
  const started = await startDeployTarget(options);
  targets.push(started);
  return started;
};
const eventReceiver = async (api: Api) => {
  const receiver = await startReceiver();
  receivers.push(receiver);
  await createWebhook(api, { url: receiver.url(), events: deploymentEvents });
  return receiver;
};
afterAll(async () => {
  await Promise.all([...targets.map((t) => t.close()), ...receivers.map((r) => r.close())]);
});

const setUp = async () => {
  const owner = await newAccount();
  const api = as(owner.test.key);
  return { api, owner, projectId: await newProject(api) };
};

describe('a healthy deployment', () => {
  it('is queued, deploys through the signed hook, passes its health check and completes, with its events in order', async () => {
    const { api: plain, projectId } = await setUp();
    const texts: string[] = [];
    const api = recording(plain, texts);
    const receiver = await eventReceiver(plain);
    const site = await target();

    const created = await api.post('/deployments', {
      project_id: projectId,
      environment: 'production',
      provider: 'deploy-hook',
      config: hookConfig(site),
    });
    expect(created.status).toBe(201);
    const queued = created.body.data;
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/deployments/${queued.id}$`));
    expect(queued).toMatchObject({
      id: expect.stringMatching(deploymentId),
      project_id: projectId,
      environment: 'production',
      provider: 'deploy-hook',
      branch: 'main',
      auto_rollback: true,
      status: 'queued',
      url: null,
      version: null,
      health_checks: [],
      rollback: null,
      rolled_back_to: null,
      rolled_back_from: null,
      error: null,
      artifact: null,
      created_at: expect.stringMatching(timestamp),
      started_at: null,
      completed_at: null,
    });
    expect(queued.config).toEqual({
      branch: 'main',
      auto_rollback: true,
      hook_url: site.hookUrl,
      health_url: site.healthUrl,
      secret: 'set',
      expected_status: null,
      health_timeout_seconds: 10,
      health_interval_seconds: 1,
    });
    expect(queued).not.toHaveProperty('deployed');
    expect(queued).not.toHaveProperty('revision');

    const done = await waitForDeployment(api, queued.id);
    expect(done.status).toBe('completed');
    expect(done).toMatchObject({
      url: `https://greeter.example.com/releases/${queued.id}`,
      version: `v-${queued.id.slice(-6)}`,
      error: null,
      rollback: null,
      started_at: expect.stringMatching(timestamp),
      completed_at: expect.stringMatching(timestamp),
      health_deadline_at: expect.stringMatching(timestamp),
    });
    expect(done.duration_ms).toBe(Date.parse(done.completed_at) - Date.parse(done.started_at));
    expect(done.health_checks.length).toBeGreaterThanOrEqual(1);
    expect(done.health_checks.at(-1)).toEqual({
      healthy: true,
      checked_at: expect.stringMatching(timestamp),
      status_code: 200,
      latency_ms: expect.any(Number),
      message: 'health check answered 200',
    });
    expect(site.probesOf(queued.id).length).toBe(done.health_checks.length);
    expect(site.probesOf(queued.id)[0]?.method).toBe('GET');

    // The hook got one signed POST asking for the deployment.
    const calls = site.calls();
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.verified).toBe(true);
    expect(call!.request.method).toBe('POST');
    expect(call!.request.path).toBe('/deploy');
    expect(call!.request.headers['content-type']).toBe('application/json');
    expect(call!.request.headers['user-agent']).toBe('ProjectAutomationService-Deployments/1.0');
    expect(call!.request.headers['x-service-deployment-id']).toBe(queued.id);
    expect(call!.body).toEqual({
      type: 'deployment.requested',
      deployment_id: queued.id,
      project: { id: projectId, name: 'Greeter', repository: expect.stringMatching(/^file:\/\//) },
      environment: 'production',
      branch: 'main',
      artifact: null,
    });
    // The secret signs the body; it is not in it.
    expect(call!.request.body).not.toContain(hookSecret);

    // Events: started then completed, snapshots of the deployment.
    const events = await waitForEvents(receiver, queued.id, 2);
    expect(events.map((event) => event.type)).toEqual(['deployment.started', 'deployment.completed']);
    expect(events[0].data).toMatchObject({ id: queued.id, status: 'in_progress', project_id: projectId, environment: 'production' });
    expect(events[1].data).toMatchObject({
      id: queued.id,
      status: 'completed',
      url: done.url,
      version: done.version,
      duration_ms: done.duration_ms,
    });
    for (const event of events) expect(JSON.stringify(event)).not.toContain(hookSecret);

    // Read again and listed: the secret appears in no answer.
    await api.get(`/deployments/${queued.id}`);
    await api.get(`/deployments?project_id=${projectId}`);
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) expect(text).not.toContain(hookSecret);
    expect(texts.at(-1)).toContain('"secret":"set"');
  });
});

describe('an unhealthy deployment', () => {
  it('fails at the health check and is rolled back automatically to the previous completed one', async () => {
    const { api, projectId } = await setUp();
    const receiver = await eventReceiver(api);
    const site = await target();
    const first = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });

    site.answerHealthWith({ status: 500, body: 'broken' });
    const second = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, second.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { step: 'health_check', message: healthDeadlineMessage },
      rolled_back_to: first.id,
      rollback: {
        status: 'completed',
        to: first.id,
        trigger: 'automatic',
        error: null,
        requested_at: expect.stringMatching(timestamp),
        completed_at: expect.stringMatching(timestamp),
      },
    });
    expect(failed.health_checks.length).toBeGreaterThanOrEqual(1);
    expect(failed.health_checks.every((check: any) => !check.healthy && check.status_code === 500)).toBe(true);
    expect(failed.health_checks.at(-1).message).toBe('health check answered 500, expected 2xx');

    // The hook was asked to go back to the first deployment, signed.
    const rollbacks = site.callsOf('deployment.rollback');
    expect(rollbacks).toHaveLength(1);
    expect(rollbacks[0]!.verified).toBe(true);
    expect(rollbacks[0]!.body).toMatchObject({
      type: 'deployment.rollback',
      deployment_id: second.id,
      rollback_to: first.id,
      version: first.version,
      url: first.url,
      environment: 'production',
      branch: 'main',
      project: { id: projectId },
    });

    const restored = (await api.get(`/deployments/${first.id}`)).body.data;
    expect(restored).toMatchObject({ status: 'completed', rolled_back_from: second.id, rolled_back_to: null, url: first.url });

    const events = await waitForEvents(receiver, second.id, 3);
    expect(events.map((event) => event.type)).toEqual(['deployment.started', 'deployment.failed', 'deployment.rollback']);
    expect(events[1].data).toMatchObject({ status: 'failed', error: { step: 'health_check' } });
    expect(events[2].data).toMatchObject({ status: 'failed', rolled_back_to: first.id });

    // The first is still the current one: rolling it back would need an earlier one.
    expectError(await api.post(`/deployments/${first.id}/rollback`), 409, 'conflict');

    // Without auto_rollback: failed, and the hook is not asked to roll back.
    const third = await deploy(api, { project_id: projectId, config: hookConfig(site, { auto_rollback: false }) });
    expect(third.auto_rollback).toBe(false);
    const thirdDone = await waitForDeployment(api, third.id);
    expect(thirdDone).toMatchObject({
      status: 'failed',
      error: { step: 'health_check', message: healthDeadlineMessage },
      rollback: null,
      rolled_back_to: null,
    });
    expect(site.callsOf('deployment.rollback')).toHaveLength(1);
    const thirdEvents = await waitForEvents(receiver, third.id, 2);
    expect(thirdEvents.map((event) => event.type)).toEqual(['deployment.started', 'deployment.failed']);

    // Nothing is in progress any more: a new deployment is accepted and completes.
    site.answerHealthWith({ status: 200, body: 'ok' });
    const fourth = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    expect(fourth.status).toBe('completed');
    // Every deployment finished, the automatic rollback included: the project can go.
    expect((await api.delete(`/projects/${projectId}`)).status).toBe(204);
  });
});

describe("a project's repository changed between deployments", () => {
  it('each deployment tells the hook the repository it deployed, a rollback to the earlier one included', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const before = (await api.get(`/projects/${projectId}`)).body.data.repository as string;
    const first = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });

    const elsewhere = await fixtureRepository();
    expect((await api.patch(`/projects/${projectId}`, { repository: elsewhere.url })).status).toBe(200);
    site.answerHealthWith({ status: 500, body: 'broken' });
    const second = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, second.id);
    expect(failed).toMatchObject({ status: 'failed', rolled_back_to: first.id, rollback: { status: 'completed', trigger: 'automatic' } });

    const told = site.calls().map((call) => [call.body.type, call.body.deployment_id, call.body.project.repository]);
    expect(told).toEqual([
      ['deployment.requested', first.id, before],
      ['deployment.requested', second.id, elsewhere.url],
      // Going back to the first deployment is going back to what it deployed.
      ['deployment.rollback', second.id, before],
    ]);
  });
});

describe('rollbacks the hook refuses', () => {
  it('automatic: the failed deployment records the failed rollback, and the place is free again', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const first = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    site.answerHealthWith({ status: 500 });
    site.answerHookWith((body) => (body.type === 'deployment.rollback' ? { status: 500, body: 'cannot' } : releaseAnswer(body)));
    const second = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, second.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { step: 'health_check' },
      rolled_back_to: null,
      rollback: {
        status: 'failed',
        to: first.id,
        trigger: 'automatic',
        error: 'rollback hook answered 500',
        completed_at: expect.stringMatching(timestamp),
      },
    });
    expect((await api.get(`/deployments/${first.id}`)).body.data.rolled_back_from).toBeNull();
    site.answerHealthWith({ status: 200 });
    site.answerHookWith(releaseAnswer);
    await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    expect((await api.delete(`/projects/${projectId}`)).status).toBe(204);
  });

  it('requested: the deployment stays completed and current, and may be rolled back again', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const d1 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    const d2 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    site.answerHookWith((body) => (body.type === 'deployment.rollback' ? { status: 500, body: 'cannot' } : releaseAnswer(body)));
    expect((await api.post(`/deployments/${d2.id}/rollback`)).status).toBe(202);
    const refused = await waitForDeployment(api, d2.id, (d) => d.rollback?.status !== 'in_progress');
    expect(refused).toMatchObject({
      status: 'completed',
      rolled_back_to: null,
      rollback: { status: 'failed', to: d1.id, trigger: 'requested', error: 'rollback hook answered 500' },
    });
    site.answerHookWith(releaseAnswer);
    expect((await api.post(`/deployments/${d2.id}/rollback`)).status).toBe(202);
    const rolledBack = await waitForDeployment(api, d2.id, (d) => d.rollback?.status !== 'in_progress');
    expect(rolledBack).toMatchObject({ status: 'rolled_back', rolled_back_to: d1.id, rollback: { status: 'completed', error: null } });
  });
});

describe('a deploy hook that answers 500', () => {
  it('fails the deployment at the deploy step, naming the status, with no rollback', async () => {
    const { api, projectId } = await setUp();
    const receiver = await eventReceiver(api);
    const site = await target();
    await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });

    site.answerHookWith(() => ({ status: 500, body: 'deploy system down' }));
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, created.id);
    expect(failed).toMatchObject({
      status: 'failed',
      rollback: null,
      rolled_back_to: null,
      url: null,
      version: null,
      health_checks: [],
      health_deadline_at: null,
    });
    expect(failed.error).toEqual({ step: 'deploy', message: expect.stringContaining('500') });
    expect(failed.error.message).toBe('deploy hook answered 500');
    // A permanent failure: one attempt, no retries, no rollback request, no health probe.
    expect(site.callsOf('deployment.requested').filter((call) => call.body.deployment_id === created.id)).toHaveLength(1);
    expect(site.callsOf('deployment.rollback')).toHaveLength(0);
    expect(site.probesOf(created.id)).toHaveLength(0);
    const events = await waitForEvents(receiver, created.id, 2);
    expect(events.map((event) => event.type)).toEqual(['deployment.started', 'deployment.failed']);
  });
});

describe('deploy hook answers', () => {
  it('503 is retried (the same request, signed afresh) and a later 2xx completes the deployment', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    let answered = 0;
    site.answerHookWith(() => (++answered <= 2 ? { status: 503, body: 'busy' } : { status: 200, body: JSON.stringify({ version: 42 }) }));
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const done = await waitForDeployment(api, created.id);
    expect(done).toMatchObject({ status: 'completed', version: '42', url: null, error: null });
    const calls = site.callsOf('deployment.requested');
    expect(calls).toHaveLength(3);
    expect(calls.every((call) => call.verified)).toBe(true);
    expect(new Set(calls.map((call) => call.request.body)).size).toBe(1);
  });

  it('503 on every attempt: failed at deploy after 3 retries', async () => {
    const { api, projectId } = await setUp();
    const site = await target({ hook: () => ({ status: 503, body: 'busy' }) });
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, created.id);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'deploy', message: 'deploy hook answered 503' } });
    expect(site.callsOf('deployment.requested')).toHaveLength(4);
  });

  it('a 2xx without JSON: no url, and the version is the deployment id', async () => {
    const { api, projectId } = await setUp();
    const site = await target({ hook: () => ({ status: 202, body: 'accepted' }) });
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const done = await waitForDeployment(api, created.id);
    expect(done).toMatchObject({ status: 'completed', url: null, version: created.id });
  });

  it('a signature the hook cannot verify (401) fails the deployment at deploy', async () => {
    const { api, projectId } = await setUp();
    // The hook knows another secret than the one configured.
    const site = await target({ secret: 'another-secret-of-the-hook-0123456789' });
    const created = await deploy(api, { project_id: projectId, config: { ...hookConfig(site), secret: hookSecret } });
    const failed = await waitForDeployment(api, created.id);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'deploy', message: 'deploy hook answered 401' } });
    expect(site.calls().map((call) => call.verified)).toEqual([false]);
  });
});

describe('a health endpoint that never answers healthy', () => {
  it('keeps answering 503: the deployment fails once the scaled deadline has passed', async () => {
    const { api, projectId } = await setUp();
    const site = await target({ health: { status: 503, body: 'starting' } });
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, created.id);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'health_check', message: healthDeadlineMessage }, rollback: null });
    // The deadline is 10 s × 0.01 after the deploy ended; the failure came once it had passed.
    expect(Date.parse(failed.health_deadline_at) - Date.parse(failed.started_at)).toBeGreaterThanOrEqual(100);
    expect(Date.parse(failed.health_deadline_at)).toBeLessThanOrEqual(Date.parse(failed.completed_at));
    expect(failed.duration_ms).toBeGreaterThanOrEqual(100);
    expect(failed.health_checks.length).toBeGreaterThanOrEqual(1);
    expect(failed.health_checks.every((check: any) => check.healthy === false && check.status_code === 503)).toBe(true);
    expect(failed.health_checks[0].message).toBe('health check answered 503, expected 2xx');
    expect(failed.url).toBe(`https://greeter.example.com/releases/${created.id}`);
  });

  it('hangs: the probe gives up after its own 10 s bound, and the deployment fails, the deadline having passed', async () => {
    const { api, projectId } = await setUp();
    const site = await target({ health: 'hang' });
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site) });
    const failed = await waitForDeployment(api, created.id, undefined, 30_000);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'health_check', message: healthDeadlineMessage }, rollback: null });
    expect(failed.health_checks).toHaveLength(1);
    expect(failed.health_checks[0]).toMatchObject({
      healthy: false,
      status_code: null,
      message: expect.stringMatching(/^health check failed \(timeout\)/),
    });
    expect(failed.health_checks[0].latency_ms).toBeGreaterThanOrEqual(9_000);
    // The runtime closed the hanging request.
    await site.health.waitForClose(1, 5_000);
  }, 45_000);

  it('keeps only the latest 20 probes', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    // Unhealthy for the first 21 probes, healthy from the 22nd: how many probes there are depends on
    // the health endpoint, not on how fast this machine runs them. The deadline (the longest
    // allowed, 900 s × 0.01 = 9 s) leaves each probe 400 ms, against 10 ms between probes.
    const healthyFrom = 22;
    site.answerHealthWith((request) =>
      site.health.requests.filter((r) => r.headers['x-service-deployment-id'] === request.headers['x-service-deployment-id']).length + 1 <
      healthyFrom
        ? { status: 503, body: 'starting' }
        : { status: 200, body: 'ok' },
    );
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site, { health_timeout_seconds: 900 }) });
    const done = await waitForDeployment(api, created.id, undefined, 60_000);
    expect(done.status).toBe('completed');
    const probes = site.probesOf(created.id);
    expect(probes).toHaveLength(healthyFrom);
    expect(done.health_checks).toHaveLength(20);
    expect(done.health_checks.map((check: any) => check.healthy)).toEqual([...Array(19).fill(false), true]);
    const times = done.health_checks.map((check: any) => check.checked_at);
    expect([...times].sort()).toEqual(times);
    // The 2 oldest probes are the ones dropped.
    expect(Date.parse(times[0])).toBeGreaterThan(probes[0]!.arrivedAt);
  });

  it('with expected_status, only that status is healthy', async () => {
    const { api, projectId } = await setUp();
    const site = await target({ health: { status: 200, body: 'ok' } });
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site, { expected_status: 204 }) });
    const failed = await waitForDeployment(api, created.id);
    expect(failed).toMatchObject({ status: 'failed', error: { step: 'health_check' } });
    expect(failed.health_checks[0]).toMatchObject({ healthy: false, status_code: 200, message: 'health check answered 200, expected 204' });
  });
});

describe('requested rollbacks', () => {
  it('go back from the current deployment to the previous completed one, and are refused otherwise', async () => {
    const { api, owner, projectId } = await setUp();
    const receiver = await eventReceiver(api);
    const site = await target();
    const config = hookConfig(site);

    const d0 = await completedDeployment(api, { project_id: projectId, config });
    // The current one, but nothing to go back to.
    const alone = await api.post(`/deployments/${d0.id}/rollback`);
    expectError(alone, 409, 'conflict');
    expect(alone.body.error.message).toMatch(/no earlier completed deployment/);

    const d1 = await completedDeployment(api, { project_id: projectId, config });
    const d2 = await completedDeployment(api, { project_id: projectId, config });

    // An older completed one with an earlier one behind it, but not the current one.
    const older = await api.post(`/deployments/${d1.id}/rollback`);
    expectError(older, 409, 'conflict');
    expect(older.body.error.message).toMatch(/not the current one/);

    const accepted = await api.post(`/deployments/${d2.id}/rollback`);
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toMatchObject({
      id: d2.id,
      status: 'completed',
      rollback: {
        status: 'in_progress',
        to: d1.id,
        trigger: 'requested',
        requested_at: expect.stringMatching(timestamp),
        completed_at: null,
        error: null,
      },
    });
    const rolledBack = await waitForDeployment(api, d2.id, (d) => d.rollback?.status !== 'in_progress');
    expect(rolledBack).toMatchObject({
      status: 'rolled_back',
      rolled_back_to: d1.id,
      rollback: { status: 'completed', to: d1.id, trigger: 'requested' },
    });
    const restored = (await api.get(`/deployments/${d1.id}`)).body.data;
    expect(restored).toMatchObject({ status: 'completed', rolled_back_from: d2.id });
    const rollbackCalls = site.callsOf('deployment.rollback');
    expect(rollbackCalls).toHaveLength(1);
    expect(rollbackCalls[0]).toMatchObject({ verified: true, body: { deployment_id: d2.id, rollback_to: d1.id, version: d1.version } });
    const events = await waitForEvents(receiver, d2.id, 3);
    expect(events.map((event) => event.type)).toEqual(['deployment.started', 'deployment.completed', 'deployment.rollback']);
    expect(events[2].data).toMatchObject({ status: 'rolled_back', rolled_back_to: d1.id });

    // The rolled back one cannot be rolled back again.
    const again = await api.post(`/deployments/${d2.id}/rollback`);
    expectError(again, 409, 'conflict');
    expect(again.body.error.message).toMatch(/rolled_back/);

    // d1 is current again, and d0 is behind it: rolling d1 back works.
    const second = await api.post(`/deployments/${d1.id}/rollback`);
    expect(second.status).toBe(202);
    expect(second.body.data.rollback).toMatchObject({ to: d0.id, status: 'in_progress' });
    const d1Done = await waitForDeployment(api, d1.id, (d) => d.rollback?.status !== 'in_progress');
    expect(d1Done).toMatchObject({ status: 'rolled_back', rolled_back_to: d0.id, rolled_back_from: d2.id });
    expect((await api.get(`/deployments/${d0.id}`)).body.data).toMatchObject({ status: 'completed', rolled_back_from: d1.id });
    // d0 is current, with nothing behind it.
    expectError(await api.post(`/deployments/${d0.id}/rollback`), 409, 'conflict');

    // A new deployment after the rollbacks goes back to d0, the latest completed one.
    const d3 = await completedDeployment(api, { project_id: projectId, config });
    const third = await api.post(`/deployments/${d3.id}/rollback`);
    expect(third.status).toBe(202);
    expect(third.body.data.rollback.to).toBe(d0.id);
    await waitForDeployment(api, d3.id, (d) => d.rollback?.status !== 'in_progress');

    // A failed one.
    site.answerHookWith(() => ({ status: 500 }));
    const broken = await deploy(api, { project_id: projectId, config });
    expect((await waitForDeployment(api, broken.id)).status).toBe('failed');
    const ofFailed = await api.post(`/deployments/${broken.id}/rollback`);
    expectError(ofFailed, 409, 'conflict');
    expect(ofFailed.body.error.message).toMatch(/failed/);

    // Unknown and malformed ids.
    expectError(await api.post('/deployments/dep_01J00000000000000000000000/rollback'), 404, 'not_found');
    expectError(await api.post('/deployments/not-a-deployment/rollback'), 404, 'not_found');
    expectError(await api.get('/deployments/dep_01J00000000000000000000000'), 404, 'not_found');
    expectError(await api.get('/deployments/nope'), 404, 'not_found');
    // Another account's deployment is unknown here.
    const stranger = as((await newAccount()).test.key);
    expectError(await stranger.get(`/deployments/${d0.id}`), 404, 'not_found');
    expectError(await stranger.post(`/deployments/${d0.id}/rollback`), 404, 'not_found');
    // Nor from the other mode of the same account.
    expectError(await as(owner.live.key).get(`/deployments/${d0.id}`), 404, 'not_found');

    // All finished, requested rollbacks included: the project can go.
    expect((await api.delete(`/projects/${projectId}`)).status).toBe(204);
  });
});

describe('one deployment in progress per project and environment', () => {
  it('refuses a second one and the project deletion while one runs, and accepts another environment', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    // Unhealthy until released, with a deadline far away (900 s × 0.01 = 9 s).
    let healthy = false;
    site.answerHealthWith(() => (healthy ? { status: 200, body: 'ok' } : { status: 503, body: 'warming up' }));
    const slow = hookConfig(site, { health_timeout_seconds: 900, health_interval_seconds: 10 });

    const first = await deploy(api, { project_id: projectId, config: slow });
    await waitForDeployment(api, first.id, (d) => d.status === 'in_progress' && d.health_checks.length > 0);

    const second = await api.post('/deployments', {
      project_id: projectId,
      environment: 'production',
      provider: 'deploy-hook',
      config: hookConfig(site),
    });
    expectError(second, 409, 'conflict');
    expect(second.body.error.message).toMatch(/in progress/);

    const staging = await deploy(api, { project_id: projectId, environment: 'staging', config: slow });
    expect(staging.environment).toBe('staging');

    expectError(await api.delete(`/projects/${projectId}`), 409, 'conflict');
    // Listing shows both as running.
    const running = await api.get(`/deployments?project_id=${projectId}&status=in_progress`);
    expect(running.body.data.map((d: any) => d.id).sort()).toEqual(expect.arrayContaining([first.id]));

    healthy = true;
    const [firstDone, stagingDone] = await Promise.all([waitForDeployment(api, first.id), waitForDeployment(api, staging.id)]);
    expect([firstDone.status, stagingDone.status]).toEqual(['completed', 'completed']);
    expect(firstDone.health_checks.at(-1).healthy).toBe(true);
    expect(firstDone.health_checks.slice(0, -1).every((check: any) => !check.healthy)).toBe(true);

    // Both finished: the project can go.
    const deleted = await api.delete(`/projects/${projectId}`);
    expect(deleted.status).toBe(204);
  });

  it('lets exactly one of several simultaneous requests through', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        api.post('/deployments', { project_id: projectId, environment: 'preview', provider: 'deploy-hook', config: hookConfig(site) }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
    const winner = answers.find((answer) => answer.status === 201)!.body.data;
    expect((await waitForDeployment(api, winner.id)).status).toBe('completed');
    const listed = await api.get(`/deployments?project_id=${projectId}`);
    expect(listed.body.meta.total).toBe(1);
    expect(site.callsOf('deployment.requested')).toHaveLength(1);
  });

  it('refuses the project deletion while a requested rollback is in progress', async () => {
    // README: "One deployment (or rollback) in progress per project and environment" and "A project
    // with a deployment in progress cannot be deleted (409)". The Rollback task is slowed (fault
    // injection) so that the DELETE lands while the rollback holds the lock.
    const { api, projectId } = await setUp();
    const site = await target();
    const d1 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    const d2 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    injectFaults({ state: 'Rollback', delayMs: 800, match: { 'deployment.id': d2.id } });
    expect((await api.post(`/deployments/${d2.id}/rollback`)).status).toBe(202);
    const during = await api.delete(`/projects/${projectId}`);
    const after = await waitForDeployment(api, d2.id, (d) => d.rollback?.status !== 'in_progress');
    expect({ deleteStatus: during.status, status: after.status, rollback: after.rollback.status, error: after.rollback.error }).toEqual({
      deleteStatus: 409,
      status: 'rolled_back',
      rollback: 'completed',
      error: null,
    });
    expect(site.callsOf('deployment.rollback').map((call) => call.body.rollback_to)).toEqual([d1.id]);
  });

  it('refuses a requested rollback while another deployment of the place is in progress', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const d1 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    const d2 = await completedDeployment(api, { project_id: projectId, config: hookConfig(site) });
    let healthy = false;
    site.answerHealthWith(() => (healthy ? { status: 200 } : { status: 503 }));
    const d3 = await deploy(api, {
      project_id: projectId,
      config: hookConfig(site, { health_timeout_seconds: 900, health_interval_seconds: 10 }),
    });
    await waitForDeployment(api, d3.id, (d) => d.status === 'in_progress');
    const busy = await api.post(`/deployments/${d2.id}/rollback`);
    expectError(busy, 409, 'conflict');
    expect(busy.body.error.message).toMatch(/in progress/);
    healthy = true;
    expect((await waitForDeployment(api, d3.id)).status).toBe('completed');
    expect((await api.get(`/deployments/${d1.id}`)).body.data.status).toBe('completed');
  });
});

describe('validation', () => {
  it('names the field at fault', async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const valid = { project_id: projectId, environment: 'production', provider: 'deploy-hook', config: hookConfig(site) };
    const withConfig = (change: Record<string, unknown>, drop: string[] = []) => {
      const config: Record<string, unknown> = { ...valid.config, ...change };
      for (const name of drop) delete config[name];
      return { ...valid, config };
    };

    const provider = await api.post('/deployments', { ...valid, provider: 'heroku' });
    expectInvalid(provider, 'provider', /deploy-hook, aws-lambda/);
    expectInvalid(await api.post('/deployments', withConfig({}, ['branch'])), 'config.branch');
    expectInvalid(await api.post('/deployments', withConfig({ branch: 'feature..x' })), 'config.branch');
    expectInvalid(await api.post('/deployments', withConfig({}, ['hook_url'])), 'config.hook_url', /required/);
    expectInvalid(await api.post('/deployments', withConfig({ secret: 'short-secret' })), 'config.secret', /16 to 256/);
    expectInvalid(await api.post('/deployments', withConfig({}, ['secret'])), 'config.secret', /required/);
    expectInvalid(await api.post('/deployments', withConfig({ health_timeout_seconds: 5 })), 'config.health_timeout_seconds', /10 and 900/);
    expectInvalid(
      await api.post('/deployments', withConfig({ health_interval_seconds: 61 })),
      'config.health_interval_seconds',
      /1 and 60/,
    );
    expectInvalid(
      await api.post('/deployments', withConfig({ health_timeout_seconds: 10, health_interval_seconds: 20 })),
      'config.health_interval_seconds',
      /must not exceed/,
    );
    expectInvalid(await api.post('/deployments', withConfig({ expected_status: 100 })), 'config.expected_status');
    expectInvalid(await api.post('/deployments', withConfig({ auto_rollback: 'yes' })), 'config.auto_rollback');
    expectInvalid(await api.post('/deployments', withConfig({ surprise: true })), 'config.surprise', /not a known field/);
    expectInvalid(await api.post('/deployments', withConfig({ hook_url: 'ftp://127.0.0.1/x' })), 'config.hook_url');
    expectInvalid(
      await api.post('/deployments', { ...valid, environment: 'qa' }),
      'environment',
      /production, staging, preview, development/,
    );
    expectInvalid(await api.post('/deployments', { ...valid, project_id: 'proj_01J00000000000000000000000' }), 'project_id');
    expectInvalid(await api.post('/deployments', { ...valid, project_id: 'nope' }), 'project_id');
    expectInvalid(await api.post('/deployments', { ...valid, extra: 1 }), 'extra');

    // A live key may not target this machine (nor use http).
    const { live } = await newAccount();
    const liveApi = as(live.key);
    const liveProject = await newProject(liveApi);
    expectInvalid(await liveApi.post('/deployments', { ...valid, project_id: liveProject }), 'config.hook_url');
    // A test-mode project is not a live one (the config itself is fine for live: https, public address).
    // Refused, so nothing is ever sent to it; were it sent, the network fence would fail the run.
    const publicConfig = { ...valid.config, hook_url: 'https://93.184.215.14/deploy', health_url: 'https://93.184.215.14/healthz' };
    expectInvalid(await liveApi.post('/deployments', { ...valid, config: publicConfig }), 'project_id');

    // aws-lambda: the runtime's live-mode target `greeter` (global-setup.ts) is not a test key's:
    // test mode has none, so every test-mode aws-lambda deployment is refused.
    const lambdaConfig = { branch: 'main', function_name: 'greeter', code: { s3_bucket: 'greeter-builds', s3_key: 'greeter.zip' } };
    const lambda = await api.post('/deployments', { ...valid, provider: 'aws-lambda', config: lambdaConfig });
    expectInvalid(lambda, 'config.function_name', /^is not a test-mode deploy target of this deployment; allowed: none$/);
    // The live key sees the live list (not deployed to here: that would reach AWS).
    const liveLambda = await liveApi.post('/deployments', {
      ...valid,
      project_id: liveProject,
      provider: 'aws-lambda',
      config: { ...lambdaConfig, function_name: 'billing' },
    });
    expectInvalid(liveLambda, 'config.function_name', /^is not a live-mode deploy target of this deployment; allowed: greeter$/);

    // Artifacts: not a workflow, another project's workflow, a workflow that did not complete.
    expectInvalid(
      await api.post('/deployments', { ...valid, artifact: 'wf_01J00000000000000000000000' }),
      'artifact',
      /not a workflow of this project/,
    );
    expectInvalid(await api.post('/deployments', { ...valid, artifact: 'nope' }), 'artifact');
    injectFaults({ state: 'Intake', error: 'StageBroke', cause: 'intake broke on purpose', match: { 'workflow.project_id': projectId } });
    const workflow = await api.post('/workflows', {
      project_id: projectId,
      prompt: 'Add a farewell helper',
      config: { ai_provider: 'local' },
    });
    expect(workflow.status).toBe(201);
    const failedWorkflow = await waitForWorkflow(api, workflow.body.data.id);
    expect(failedWorkflow.status).toBe('failed');
    expectInvalid(await api.post('/deployments', { ...valid, artifact: failedWorkflow.id }), 'artifact', /failed workflow/);
    const otherProject = await newProject(api, 'Other');
    expectInvalid(
      await api.post('/deployments', { ...valid, project_id: otherProject, artifact: failedWorkflow.id }),
      'artifact',
      /not a workflow of this project/,
    );

    // Nothing was created by any of these.
    const listed = await api.get('/deployments');
    expect(listed.body.meta.total).toBe(0);
    expect(listed.body.data).toEqual([]);
    expect(site.calls()).toHaveLength(0);
  });
});

describe('an artifact', () => {
  it("is a completed workflow's bundle, handed to the hook", async () => {
    const { api, projectId } = await setUp();
    const site = await target();
    const prompt = 'Add a farewell helper\n\n```js src/farewell.js\nexport const farewell = (name) => `Goodbye, ${name}!`;\n```\n';
    const workflow = await api.post('/workflows', { project_id: projectId, prompt, config: { ai_provider: 'local' } });
    expect(workflow.status).toBe(201);
    const done = await waitForWorkflow(api, workflow.body.data.id);
    expect(done.status).toBe('completed');
    const created = await deploy(api, { project_id: projectId, config: hookConfig(site), artifact: done.id });
    expect(created.artifact).toEqual({ workflow_id: done.id, bundle: done.outputs.bundle });
    expect((await waitForDeployment(api, created.id)).status).toBe('completed');
    expect(site.callsOf('deployment.requested')[0]!.body.artifact).toEqual({ workflow_id: done.id, bundle: done.outputs.bundle });
  });
});

describe('listing', () => {
  it('filters by project, environment and status, with the right totals', async () => {
    const { api, projectId } = await setUp();
    const otherProject = await newProject(api, 'Other');
    const site = await target();
    const ok = hookConfig(site);

    const a = await completedDeployment(api, { project_id: projectId, config: ok });
    const b = await completedDeployment(api, { project_id: projectId, environment: 'staging', config: ok });
    const c = await completedDeployment(api, { project_id: otherProject, config: ok });
    site.answerHookWith(() => ({ status: 500 }));
    const d = await deploy(api, { project_id: projectId, config: ok });
    await waitForDeployment(api, d.id);

    const ids = async (query: string) => {
      const answer = await api.get(`/deployments${query}`);
      expect(answer.status).toBe(200);
      return { ids: answer.body.data.map((item: any) => item.id).sort(), total: answer.body.meta.total };
    };
    const sorted = (...list: string[]) => [...list].sort();
    expect(await ids('')).toEqual({ ids: sorted(a.id, b.id, c.id, d.id), total: 4 });
    expect(await ids(`?project_id=${projectId}`)).toEqual({ ids: sorted(a.id, b.id, d.id), total: 3 });
    expect(await ids(`?project_id=${otherProject}`)).toEqual({ ids: [c.id], total: 1 });
    expect(await ids('?environment=production')).toEqual({ ids: sorted(a.id, c.id, d.id), total: 3 });
    expect(await ids(`?project_id=${projectId}&environment=production`)).toEqual({ ids: sorted(a.id, d.id), total: 2 });
    expect(await ids(`?project_id=${projectId}&environment=staging`)).toEqual({ ids: [b.id], total: 1 });
    expect(await ids('?status=failed')).toEqual({ ids: [d.id], total: 1 });
    expect(await ids('?status=completed')).toEqual({ ids: sorted(a.id, b.id, c.id), total: 3 });
    expect(await ids(`?project_id=${projectId}&status=completed`)).toEqual({ ids: sorted(a.id, b.id), total: 2 });
    expect(await ids(`?project_id=${projectId}&environment=production&status=completed`)).toEqual({ ids: [a.id], total: 1 });
    expect(await ids('?environment=preview')).toEqual({ ids: [], total: 0 });
    expect(await ids('?project_id=proj_01J00000000000000000000000')).toEqual({ ids: [], total: 0 });

    // Newest first by default, and paged.
    const page = await api.get('/deployments?per_page=2');
    expect(page.body.data.map((item: any) => item.id)).toEqual([d.id, c.id]);
    expect(page.body.meta.total).toBe(4);

    // Invalid filters.
    expectInvalid(await api.get('/deployments?environment=qa'), 'environment');
    expectInvalid(await api.get('/deployments?status=done'), 'status');
    // The list shows no secret either.
    expect((await api.get('/deployments')).text).not.toContain(hookSecret);
  });
});
