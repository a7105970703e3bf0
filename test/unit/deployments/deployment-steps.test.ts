import { isoTime } from '../../../functions/core/clock';
import type { Deployment } from '../../../functions/core/deployments/deployment';
import {
  completeDeployment,
  DeploymentStateError,
  failFromCatch,
  recordRollbackFailure,
  runDeploy,
  runHealthCheck,
  runRollback,
  startDeployment,
  type StepDeps,
} from '../../../functions/core/deployments/deployment-steps';
import { createDeployment, type DeploymentDeps, requestRollback } from '../../../functions/core/deployments/deployment-use-cases';
import { deploymentSnapshot } from '../../../functions/core/deployments/snapshot';
import {
  DeploymentProviderError,
  DeploymentTransientError,
  type HealthOutcome,
} from '../../../functions/core/deployments/providers/provider';
import { controlledClock, startOfTests } from '../fakes/clock';
import { fakeDeploymentExecutor } from '../fakes/deployment-executor';
import { completedRecord, deploymentRecord, project, projectId, refOf, tenant } from '../fakes/deployment-fixtures';
import { fakeDeploymentProvider, fakeProviderCatalogue, type FakeDeploymentProvider } from '../fakes/deployment-provider';
import { inMemoryDeploymentRepository } from '../fakes/deployment-repository';
import { inMemoryProjectRepository } from '../fakes/project-repository';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';

const setup = (timeScale = 1) => {
  const deployments = inMemoryDeploymentRepository();
  deployments.addProject(tenant, projectId);
  const projects = inMemoryProjectRepository();
  void projects.create(tenant, project);
  const fake = fakeDeploymentProvider('fake');
  const other = fakeDeploymentProvider('other');
  const providers = new Map<string, FakeDeploymentProvider>([
    [fake.name, fake],
    [other.name, other],
  ]);
  const clock = controlledClock();
  const deps: StepDeps = {
    deployments,
    projects,
    provider(name) {
      const provider = providers.get(name);
      if (!provider) throw new Error(`unknown deployment provider ${name}`);
      return provider;
    },
    clock,
    timeScale,
  };
  /** Stores `deployment` as `create` would: holding the lock and counting as active. */
  const placed = async (deployment: Deployment): Promise<Deployment> => {
    const stored = { ...deployment, status: 'queued' as const };
    expect(await deployments.create(tenant, stored)).toBe('created');
    deployments.put(tenant, deployment);
    return deployment;
  };
  return { deployments, projects, fake, other, clock, deps, placed };
};

const targetOf = (deployment: Deployment) => ({
  deployment_id: deployment.id,
  project: { id: project.id, name: project.name, repository: project.repository },
  environment: deployment.environment,
  branch: deployment.branch,
  mode: tenant.mode,
  artifact: deployment.artifact,
});

const inProgress = (overrides: Partial<Deployment> = {}): Deployment =>
  deploymentRecord({ status: 'in_progress', started_at: isoTime(startOfTests), revision: 2, ...overrides });

const deployedOutcome = { url: 'https://new.example.test', version: 'v9', details: { build: 9 } };

/** In progress with something deployed and a health deadline 120 s from the tests' start. */
const deployed = (overrides: Partial<Deployment> = {}): Deployment =>
  inProgress({
    deployed: deployedOutcome,
    url: deployedOutcome.url,
    version: deployedOutcome.version,
    health_deadline_at: isoTime(startOfTests + 120_000),
    revision: 3,
    ...overrides,
  });

const lambdaCause = (errorType: string, errorMessage: string) =>
  JSON.stringify({ errorType, errorMessage, trace: [`${errorType}: ${errorMessage}`, '    at deploy (/var/task/index.mjs:1:2345)'] });

describe('startDeployment', () => {
  it('moves a queued deployment to in_progress with its deployment.started event', async () => {
    const { deps, deployments, clock, placed } = setup();
    const queued = await placed(deploymentRecord());
    clock.advance(250);
    const started = await startDeployment(deps, refOf(queued));
    const at = isoTime(startOfTests + 250);
    expect(started).toEqual({
      ...queued,
      status: 'in_progress',
      started_at: at,
      updated_at: at,
      revision: 2,
      repository: project.repository,
    });
    expect(deployments.stored(tenant, queued.id)).toEqual(started);
    expect(deployments.events).toEqual([{ type: 'deployment.started', data: deploymentSnapshot(started), deploymentId: queued.id }]);
    // The lock stays with it; still active.
    expect(deployments.saves.at(-1)?.effects).toEqual({});
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBe(queued.id);
  });

  it('is idempotent: a second start changes nothing and stores no second event', async () => {
    const { deps, deployments, clock, placed } = setup();
    const queued = await placed(deploymentRecord());
    const first = await startDeployment(deps, refOf(queued));
    clock.advance(1_000);
    await expect(startDeployment(deps, refOf(queued))).resolves.toEqual(first);
    expect(deployments.stored(tenant, queued.id)).toEqual(first);
    expect(deployments.events).toHaveLength(1);
  });

  it('leaves a failed deployment alone, and throws DeploymentStateError for an unknown one', async () => {
    const { deps, deployments } = setup();
    const failed = deploymentRecord({ status: 'failed' });
    deployments.put(tenant, failed);
    await expect(startDeployment(deps, refOf(failed))).resolves.toEqual(failed);
    await expect(startDeployment(deps, refOf(deploymentRecord({}, startOfTests + 1)))).rejects.toThrow(DeploymentStateError);
    expect(deployments.calls.save).toBe(0);
  });

  it('reads again and retries when the record changed meanwhile', async () => {
    const { deps, deployments, placed } = setup();
    const queued = await placed(deploymentRecord());
    let interfered = 0;
    deployments.interfere((stored) => (interfered++ === 0 ? { ...stored, revision: stored.revision + 1 } : stored));
    const started = await startDeployment(deps, refOf(queued));
    expect(deployments.calls.savesRejected).toBe(1);
    expect(started).toMatchObject({ status: 'in_progress', revision: 3 });
    expect(deployments.events).toHaveLength(1);
  });

  it('gives up after ten changed reads', async () => {
    const { deps, deployments, placed } = setup();
    const queued = await placed(deploymentRecord());
    deployments.interfere((stored) => ({ ...stored, revision: stored.revision + 1 }));
    await expect(startDeployment(deps, refOf(queued))).rejects.toThrow('kept changing');
    expect(deployments.calls.savesRejected).toBe(10);
    expect(deployments.events).toEqual([]);
  });
});

describe('runDeploy', () => {
  it('deploys the target through its provider, stores the outcome and a deadline, and answers the wait before the first probe', async () => {
    const { deps, deployments, fake, clock } = setup();
    const deployment = inProgress({ branch: 'release', config: { health_timeout_seconds: 60, health_interval_seconds: 7, hook: 'x' } });
    deployments.put(tenant, deployment);
    fake.script.deploy.push(deployedOutcome);
    clock.advance(2_000);

    await expect(runDeploy(deps, refOf(deployment))).resolves.toEqual({ interval_seconds: 7 });
    expect(fake.calls).toEqual([{ method: 'deploy', target: targetOf({ ...deployment }), config: deployment.config }]);
    expect(fake.callsOf('deploy')[0]?.target.branch).toBe('release');
    expect(deployments.stored(tenant, deployment.id)).toEqual({
      ...deployment,
      deployed: deployedOutcome,
      url: deployedOutcome.url,
      version: deployedOutcome.version,
      health_deadline_at: isoTime(startOfTests + 2_000 + 60_000),
      updated_at: isoTime(startOfTests + 2_000),
      revision: deployment.revision + 1,
    });
    expect(deployments.events).toEqual([]);
  });

  it('hands the artifact to the provider', async () => {
    const { deps, deployments, fake } = setup();
    const artifact = { workflow_id: 'wf_01JD2Q8X4B6V3C1N0M9K8J7H6G', bundle: { location: 's3://b/k', sha256: 'f'.repeat(64), size: 9 } };
    const deployment = inProgress({ artifact });
    deployments.put(tenant, deployment);
    await runDeploy(deps, refOf(deployment));
    expect(fake.callsOf('deploy')[0]?.target.artifact).toEqual(artifact);
  });

  it('scales the deadline by timeScale, but answers the wait in whole seconds (a Wait SecondsPath; the local runtime scales it)', async () => {
    const { deps, deployments } = setup(0.01);
    const deployment = inProgress({ config: { health_timeout_seconds: 100, health_interval_seconds: 5 } });
    deployments.put(tenant, deployment);
    const answer = await runDeploy(deps, refOf(deployment));
    expect(answer).toEqual({ interval_seconds: 5 });
    expect(Number.isInteger(answer.interval_seconds)).toBe(true);
    expect(deployments.stored(tenant, deployment.id)?.health_deadline_at).toBe(isoTime(startOfTests + 1_000));
  });

  it('throws the provider error as is and stores nothing', async () => {
    const { deps, deployments, fake } = setup();
    const deployment = inProgress();
    deployments.put(tenant, deployment);
    fake.script.deploy.push(new DeploymentTransientError('throttled'), new DeploymentProviderError('the hook answered 500'));
    await expect(runDeploy(deps, refOf(deployment))).rejects.toBeInstanceOf(DeploymentTransientError);
    await expect(runDeploy(deps, refOf(deployment))).rejects.toThrow(new DeploymentProviderError('the hook answered 500'));
    expect(deployments.stored(tenant, deployment.id)).toEqual(deployment);
  });

  it.each(['queued', 'completed', 'failed'] as const)('refuses a %s deployment without calling the provider', async (status) => {
    const { deps, deployments, fake } = setup();
    const deployment = inProgress({ status });
    deployments.put(tenant, deployment);
    await expect(runDeploy(deps, refOf(deployment))).rejects.toThrow(DeploymentStateError);
    expect(fake.calls).toEqual([]);
  });

  it('refuses a deployment whose project is gone, and an unknown deployment', async () => {
    const { deps, deployments, projects, fake } = setup();
    const deployment = inProgress();
    deployments.put(tenant, deployment);
    await projects.delete(tenant, projectId);
    await expect(runDeploy(deps, refOf(deployment))).rejects.toThrow(`project ${projectId} no longer exists`);
    await expect(runDeploy(deps, refOf(deploymentRecord({}, startOfTests + 9)))).rejects.toThrow(DeploymentStateError);
    expect(fake.calls).toEqual([]);
  });
});

describe('runHealthCheck', () => {
  const check = (healthy: boolean, at: number): HealthOutcome => ({
    healthy,
    checked_at: isoTime(at),
    status_code: healthy ? 200 : 503,
    latency_ms: 5,
    message: healthy ? 'ok' : 'health check answered 503, expected 2xx',
  });

  it('probes what was deployed, appends the outcome and answers healthy with the interval', async () => {
    const { deps, deployments, fake, clock } = setup();
    const deployment = deployed();
    deployments.put(tenant, deployment);
    clock.advance(10_000);
    fake.script.checkHealth.push(check(true, startOfTests + 10_000));
    await expect(runHealthCheck(deps, refOf(deployment))).resolves.toEqual({ healthy: true, expired: false, interval_seconds: 5 });
    expect(fake.calls).toEqual([
      { method: 'checkHealth', target: targetOf(deployment), config: deployment.config, deployed: deployedOutcome },
    ]);
    expect(deployments.stored(tenant, deployment.id)).toEqual({
      ...deployment,
      health_checks: [check(true, startOfTests + 10_000)],
      updated_at: isoTime(startOfTests + 10_000),
      revision: deployment.revision + 1,
    });
    expect(deployments.events).toEqual([]);
  });

  it(`keeps the latest 20 probes`, async () => {
    const { deps, deployments, fake } = setup();
    const history = Array.from({ length: 20 }, (_, i) => check(false, startOfTests + i));
    const deployment = deployed({ health_checks: history });
    deployments.put(tenant, deployment);
    fake.script.checkHealth.push(check(true, startOfTests + 100));
    await runHealthCheck(deps, refOf(deployment));
    const kept = deployments.stored(tenant, deployment.id)?.health_checks ?? [];
    expect(kept).toHaveLength(20);
    expect(kept).toEqual([...history.slice(1), check(true, startOfTests + 100)]);
  });

  it('is not expired while unhealthy before the deadline, and expired once it has passed', async () => {
    const { deps, deployments, fake, clock } = setup();
    const deployment = deployed();
    deployments.put(tenant, deployment);
    fake.behaviour.healthy = false;

    clock.set(startOfTests + 119_999);
    await expect(runHealthCheck(deps, refOf(deployment))).resolves.toEqual({ healthy: false, expired: false, interval_seconds: 5 });
    clock.set(startOfTests + 120_001);
    await expect(runHealthCheck(deps, refOf(deployment))).resolves.toEqual({ healthy: false, expired: true, interval_seconds: 5 });
    expect(deployments.stored(tenant, deployment.id)?.health_checks.map((c) => c.healthy)).toEqual([false, false]);
  });

  it('a healthy answer after the deadline is healthy, not expired', async () => {
    const { deps, deployments, clock } = setup();
    const deployment = deployed();
    deployments.put(tenant, deployment);
    clock.set(startOfTests + 500_000);
    await expect(runHealthCheck(deps, refOf(deployment))).resolves.toMatchObject({ healthy: true, expired: false });
  });

  it('answers the interval in whole seconds whatever the timeScale', async () => {
    const { deps, deployments } = setup(0.01);
    const deployment = deployed();
    deployments.put(tenant, deployment);
    expect((await runHealthCheck(deps, refOf(deployment))).interval_seconds).toBe(5);
  });

  it('refuses a deployment with nothing deployed, or no longer in progress, without probing', async () => {
    const { deps, deployments, fake } = setup();
    const nothing = inProgress();
    const done = deployed({ status: 'completed', id: deploymentRecord({}, startOfTests + 3).id });
    deployments.put(tenant, nothing);
    deployments.put(tenant, done);
    await expect(runHealthCheck(deps, refOf(nothing))).rejects.toThrow('has nothing deployed to check');
    await expect(runHealthCheck(deps, refOf(done))).rejects.toThrow(`deployment ${done.id} is completed`);
    await expect(runHealthCheck(deps, refOf(deploymentRecord({}, startOfTests + 4)))).rejects.toThrow(DeploymentStateError);
    expect(fake.calls).toEqual([]);
  });

  it('throws a provider error as is and records nothing', async () => {
    const { deps, deployments, fake } = setup();
    const deployment = deployed();
    deployments.put(tenant, deployment);
    fake.script.checkHealth.push(new DeploymentTransientError('connection reset'));
    await expect(runHealthCheck(deps, refOf(deployment))).rejects.toBeInstanceOf(DeploymentTransientError);
    expect(deployments.stored(tenant, deployment.id)).toEqual(deployment);
  });
});

describe('completeDeployment', () => {
  it('completes, becomes current, releases the lock, stops counting as active, with its deployment.completed event', async () => {
    const { deps, deployments, clock, placed } = setup();
    const deployment = await placed(deployed());
    clock.advance(42_000);
    const completed = await completeDeployment(deps, refOf(deployment));
    const at = isoTime(startOfTests + 42_000);
    expect(completed).toEqual({
      ...deployment,
      status: 'completed',
      completed_at: at,
      duration_ms: 42_000,
      updated_at: at,
      revision: deployment.revision + 1,
    });
    expect(deployments.stored(tenant, deployment.id)).toEqual(completed);
    expect(deployments.current(tenant, projectId, 'production')).toBe(deployment.id);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.saves.at(-1)?.effects).toEqual({ releaseLock: true, setCurrent: deployment.id, finished: true });
    expect(deployments.events).toEqual([
      { type: 'deployment.completed', data: deploymentSnapshot(completed), deploymentId: deployment.id },
    ]);
  });

  it('is idempotent', async () => {
    const { deps, deployments, placed } = setup();
    const deployment = await placed(deployed());
    const completed = await completeDeployment(deps, refOf(deployment));
    await expect(completeDeployment(deps, refOf(deployment))).resolves.toEqual(completed);
    expect(deployments.events).toHaveLength(1);
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
  });

  it('refuses a queued or failed deployment', async () => {
    const { deps, deployments } = setup();
    for (const status of ['queued', 'failed'] as const) {
      const deployment = deployed({ status, id: deploymentRecord({}, startOfTests + (status === 'queued' ? 1 : 2)).id });
      deployments.put(tenant, deployment);
      await expect(completeDeployment(deps, refOf(deployment))).rejects.toThrow(DeploymentStateError);
    }
    expect(deployments.calls.save).toBe(0);
  });
});

describe('failFromCatch', () => {
  const fail = (deps: StepDeps, deployment: Deployment, caught = { Error: 'DeploymentProviderError', Cause: 'the hook answered 500' }) =>
    failFromCatch(deps, refOf(deployment), caught);

  it.each([
    ['start', 'a queued deployment', deploymentRecord()],
    ['deploy', 'an in-progress deployment with nothing deployed', inProgress()],
    ['health_check', 'a deployment with something deployed', deployed()],
  ])('blames step %s for %s', async (step, _what, deployment) => {
    const { deps, deployments, placed } = setup();
    await placed(deployment);
    await expect(fail(deps, deployment)).resolves.toEqual({ rollback: false });
    expect(deployments.stored(tenant, deployment.id)?.error).toEqual({ step, message: 'the hook answered 500' });
  });

  it('records the failure with its event, releases the lock and stops counting as active when there is nothing to roll back to', async () => {
    const { deps, deployments, clock, placed } = setup();
    const deployment = await placed(deployed());
    clock.advance(30_000);
    await expect(fail(deps, deployment)).resolves.toEqual({ rollback: false });
    const at = isoTime(startOfTests + 30_000);
    const failed = deployments.stored(tenant, deployment.id);
    expect(failed).toEqual({
      ...deployment,
      status: 'failed',
      error: { step: 'health_check', message: 'the hook answered 500' },
      completed_at: at,
      duration_ms: 30_000,
      rollback: null,
      updated_at: at,
      revision: deployment.revision + 1,
    });
    expect(deployments.events).toEqual([{ type: 'deployment.failed', data: deploymentSnapshot(failed!), deploymentId: deployment.id }]);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.current(tenant, projectId, 'production')).toBeUndefined();
  });

  it('measures the duration of a deployment that never started from its creation', async () => {
    const { deps, deployments, clock, placed } = setup();
    const deployment = await placed(deploymentRecord());
    clock.advance(1_234);
    await fail(deps, deployment);
    expect(deployments.stored(tenant, deployment.id)?.duration_ms).toBe(1_234);
  });

  describe('the message', () => {
    const messageOf = async (caught: { Error?: string; Cause?: string }) => {
      const { deps, deployments, placed } = setup();
      const deployment = await placed(deployed());
      await failFromCatch(deps, refOf(deployment), caught);
      return deployments.stored(tenant, deployment.id)?.error?.message;
    };

    it("is a Lambda error's errorMessage, without its trace", async () => {
      const message = await messageOf({
        Error: 'DeploymentProviderError',
        Cause: lambdaCause('DeploymentProviderError', 'the hook answered 502'),
      });
      expect(message).toBe('the hook answered 502');
      expect(message).not.toContain('/var/task');
    });

    it("is the Unhealthy state's cause", async () => {
      const cause = 'The deployment did not answer healthy before its health deadline; see health_checks.';
      await expect(messageOf({ Error: 'HealthCheckFailed', Cause: cause })).resolves.toBe(cause);
    });

    it("is a sentence for Step Functions' own errors without a cause", async () => {
      await expect(messageOf({ Error: 'States.Timeout' })).resolves.toEqual(expect.stringContaining('time limit'));
      await expect(messageOf({})).resolves.toEqual(expect.any(String));
    });
  });

  describe('automatic rollback', () => {
    /** P: completed earlier with provider `fake`; F: in progress, deployed, holding the lock. */
    const withPrevious = async (failing: Partial<Deployment> = {}, previous: Partial<Deployment> = {}) => {
      const context = setup();
      const p = completedRecord(3_600_000, { provider: 'fake', ...previous });
      context.deployments.put(tenant, p);
      context.deployments.setCurrent(tenant, projectId, 'production', p.id);
      const f = await context.placed(deployed(failing));
      return { ...context, p, f };
    };

    it('is chosen with auto_rollback, something deployed and an earlier completed deployment of the same provider: the lock stays held', async () => {
      const { deps, deployments, p, f } = await withPrevious();
      await expect(fail(deps, f)).resolves.toEqual({ rollback: true });
      const failed = deployments.stored(tenant, f.id);
      const at = isoTime(startOfTests);
      expect(failed).toMatchObject({
        status: 'failed',
        error: { step: 'health_check', message: 'the hook answered 500' },
        rollback: { status: 'in_progress', to: p.id, requested_at: at, completed_at: null, error: null, trigger: 'automatic' },
      });
      expect(deployments.events.map((e) => [e.type, e.data.status])).toEqual([['deployment.failed', 'failed']]);
      expect(deployments.saves.at(-1)?.effects).toEqual({});
      expect(deployments.lockHolder(tenant, projectId, 'production')).toBe(f.id);
      expect(deployments.activeCount(tenant, projectId)).toBe(1);
      expect(deployments.current(tenant, projectId, 'production')).toBe(p.id);
    });

    it('is answered again, without a second event, when the failure is recorded twice', async () => {
      const { deps, deployments, f } = await withPrevious();
      await fail(deps, f);
      const once = deployments.stored(tenant, f.id);
      await expect(fail(deps, f)).resolves.toEqual({ rollback: true });
      expect(deployments.stored(tenant, f.id)).toEqual(once);
      expect(deployments.events).toHaveLength(1);
    });

    it.each([
      ['auto_rollback is off', { auto_rollback: false }, {}],
      ['nothing was deployed', { deployed: null }, {}],
      ['the previous completed deployment used another provider', {}, { provider: 'other' }],
      ['the earlier deployment is not completed', {}, { status: 'rolled_back' }],
      ['the only completed deployment is of another environment', {}, { environment: 'staging' }],
    ] as Array<[string, Partial<Deployment>, Partial<Deployment>]>)(
      'is not chosen when %s: the lock is released',
      async (_why, failing, previous) => {
        const { deps, deployments, f } = await withPrevious(failing, previous);
        await expect(fail(deps, f)).resolves.toEqual({ rollback: false });
        expect(deployments.stored(tenant, f.id)).toMatchObject({ status: 'failed', rollback: null });
        expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
        expect(deployments.activeCount(tenant, projectId)).toBe(0);
      },
    );

    it('is not chosen when the only earlier completed deployment was created after the failing one', async () => {
      const context = setup();
      const f = await context.placed(deployed());
      context.deployments.put(tenant, completedRecord(-60_000, { provider: 'fake' }));
      await expect(fail(context.deps, f)).resolves.toEqual({ rollback: false });
    });
  });

  it('leaves a completed deployment alone and answers no rollback', async () => {
    const { deps, deployments } = setup();
    const done = completedRecord(0);
    deployments.put(tenant, done);
    await expect(fail(deps, done)).resolves.toEqual({ rollback: false });
    expect(deployments.stored(tenant, done.id)).toEqual(done);
    expect(deployments.events).toEqual([]);
  });

  it('throws DeploymentStateError for an unknown deployment', async () => {
    const { deps } = setup();
    await expect(fail(deps, deploymentRecord())).rejects.toThrow(DeploymentStateError);
  });
});

describe('runRollback', () => {
  /** After an automatic-rollback decision: F failed, holding the lock, rolling back to P (current). */
  const automatic = async () => {
    const context = setup();
    const p = completedRecord(3_600_000, { provider: 'fake' });
    context.deployments.put(tenant, p);
    context.deployments.setCurrent(tenant, projectId, 'production', p.id);
    const f = await context.placed(deployed());
    await failFromCatch(context.deps, refOf(f), { Error: 'HealthCheckFailed', Cause: 'unhealthy' });
    context.clock.advance(5_000);
    return { ...context, p, f: context.deployments.stored(tenant, f.id)! };
  };

  /** A requested rollback of B (current) to A, accepted by requestRollback. */
  const requested = async () => {
    const context = setup();
    const a = completedRecord(7_200_000, { provider: 'fake' });
    const b = completedRecord(3_600_000, { provider: 'fake' });
    context.deployments.put(tenant, a);
    context.deployments.put(tenant, b);
    context.deployments.setCurrent(tenant, projectId, 'production', b.id);
    const executor = fakeDeploymentExecutor();
    const useCaseDeps: DeploymentDeps = {
      deployments: context.deployments,
      workflows: inMemoryWorkflowRepository(),
      providers: fakeProviderCatalogue([context.fake]),
      executor,
      clock: context.clock,
    };
    await requestRollback(tenant, b.id, useCaseDeps);
    context.clock.advance(5_000);
    return { ...context, a, b: context.deployments.stored(tenant, b.id)!, executor };
  };

  it('automatic: calls the provider with the failed deployment as current and the previous one, in both their targets and outcomes', async () => {
    const { deps, fake, p, f } = await automatic();
    await runRollback(deps, refOf(f));
    expect(fake.callsOf('rollback')).toEqual([
      {
        method: 'rollback',
        current: { target: targetOf(f), deployed: f.deployed },
        previous: { target: targetOf(p), deployed: p.deployed },
        config: f.config,
      },
    ]);
  });

  it('automatic: the failed deployment stays failed and records where it went back to; the previous one stays current; the lock is released', async () => {
    const { deps, deployments, p, f } = await automatic();
    const at = isoTime(startOfTests + 5_000);
    const answered = await runRollback(deps, refOf(f));

    expect(answered).toEqual({
      ...f,
      status: 'failed',
      rolled_back_to: p.id,
      rollback: { ...f.rollback!, status: 'completed', completed_at: at },
      updated_at: at,
      revision: f.revision + 1,
    });
    expect(deployments.stored(tenant, f.id)).toEqual(answered);
    expect(deployments.stored(tenant, p.id)).toEqual({
      ...p,
      rolled_back_from: f.id,
      url: 'https://previous.example.test',
      updated_at: at,
      revision: p.revision + 1,
    });
    expect(deployments.current(tenant, projectId, 'production')).toBe(p.id);
    expect(deployments.saves.at(-1)?.effects).toMatchObject({ releaseLock: true, finished: true });
    expect(deployments.saves.at(-1)?.effects.setCurrent).toBeUndefined();
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events.map((e) => e.type)).toEqual(['deployment.failed', 'deployment.rollback']);
    expect(deployments.events[1]?.data).toEqual(deploymentSnapshot(answered));
  });

  it('requested: the current deployment becomes rolled_back, its target current again, the lock released, no longer active', async () => {
    const { deps, deployments, fake, a, b } = await requested();
    const at = isoTime(startOfTests + 5_000);
    const answered = await runRollback(deps, refOf(b));

    expect(fake.callsOf('rollback')).toEqual([
      {
        method: 'rollback',
        current: { target: targetOf(b), deployed: b.deployed },
        previous: { target: targetOf(a), deployed: a.deployed },
        config: b.config,
      },
    ]);
    expect(answered).toEqual({
      ...b,
      status: 'rolled_back',
      rolled_back_to: a.id,
      rollback: { ...b.rollback!, status: 'completed', completed_at: at },
      updated_at: at,
      revision: b.revision + 1,
    });
    expect(answered.rollback?.trigger).toBe('requested');
    expect(deployments.stored(tenant, a.id)).toMatchObject({ status: 'completed', rolled_back_from: b.id, revision: a.revision + 1 });
    expect(deployments.current(tenant, projectId, 'production')).toBe(a.id);
    // The rollback counted as active from its request until now.
    expect(deployments.saves.at(-1)?.effects).toMatchObject({ releaseLock: true, finished: true, setCurrent: a.id });
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events).toEqual([{ type: 'deployment.rollback', data: deploymentSnapshot(answered), deploymentId: b.id }]);
    expect(deployments.events[0]?.data).toMatchObject({ status: 'rolled_back', rolled_back_to: a.id });
  });

  it("keeps the target's url when the provider answers none", async () => {
    const { deps, deployments, fake, a, b } = await requested();
    fake.behaviour.rollbackUrl = null;
    await runRollback(deps, refOf(b));
    expect(deployments.stored(tenant, a.id)?.url).toBe(a.url);
  });

  it('throws the provider error as is and changes nothing (the lock stays for recordRollbackFailure)', async () => {
    const { deps, deployments, fake, b } = await requested();
    fake.script.rollback.push(new DeploymentProviderError('the rollback hook answered 500'));
    await expect(runRollback(deps, refOf(b))).rejects.toThrow('the rollback hook answered 500');
    expect(deployments.stored(tenant, b.id)).toEqual(b);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBe(b.id);
  });

  it('refuses a deployment without a rollback in progress, or whose target has nothing deployed, without calling the provider', async () => {
    const { deps, deployments, fake, a, b } = await requested();
    const done = completedRecord(1_000, { provider: 'fake' });
    deployments.put(tenant, done);
    await expect(runRollback(deps, refOf(done))).rejects.toThrow(DeploymentStateError);
    deployments.put(tenant, { ...a, deployed: null });
    await expect(runRollback(deps, refOf(b))).rejects.toThrow(`the rollback target ${a.id} has nothing deployed`);
    expect(fake.calls).toEqual([]);
  });

  it('a retried invocation after the rollback completed changes nothing and calls no provider', async () => {
    const { deps, deployments, fake, b } = await requested();
    await runRollback(deps, refOf(b));
    const calls = fake.calls.length;
    const after = deployments.stored(tenant, b.id);
    await expect(runRollback(deps, refOf(b))).resolves.toEqual(after);
    expect(fake.calls).toHaveLength(calls);
    expect(deployments.stored(tenant, b.id)).toEqual(after);
  });
});

describe('recordRollbackFailure', () => {
  it('automatic: records the rollback as failed, announces it, releases the lock and stops counting as active', async () => {
    const { deps, deployments, placed, clock } = setup();
    const p = completedRecord(3_600_000, { provider: 'fake' });
    deployments.put(tenant, p);
    const f = await placed(deployed());
    await failFromCatch(deps, refOf(f), { Error: 'HealthCheckFailed', Cause: 'unhealthy' });
    clock.advance(1_000);
    const answered = await recordRollbackFailure(deps, refOf(f), 'the alias could not be moved');
    expect(answered).toMatchObject({
      status: 'failed',
      rolled_back_to: null,
      rollback: {
        status: 'failed',
        to: p.id,
        trigger: 'automatic',
        error: 'the alias could not be moved',
        completed_at: isoTime(startOfTests + 1_000),
      },
    });
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events.map((e) => e.type)).toEqual(['deployment.failed', 'deployment.rollback']);
    expect(deployments.events.at(-1)?.data).toMatchObject({
      id: f.id,
      rollback: { status: 'failed', error: 'the alias could not be moved' },
    });
  });

  it('requested: the deployment stays completed and current, the failure is announced; the lock is released', async () => {
    const { deps, deployments } = setup();
    const b = completedRecord(0, {
      rollback: {
        status: 'in_progress',
        to: 'dep_x',
        requested_at: isoTime(startOfTests),
        completed_at: null,
        error: null,
        trigger: 'requested',
      },
    });
    deployments.put(tenant, b);
    deployments.setCurrent(tenant, projectId, 'production', b.id);
    deployments.holdLock(tenant, projectId, 'production', b.id);
    const answered = await recordRollbackFailure(deps, refOf(b), 'no');
    expect(answered).toMatchObject({ status: 'completed', rollback: { status: 'failed', error: 'no' } });
    expect(deployments.saves.at(-1)?.effects).toEqual({ releaseLock: true, finished: true });
    expect(deployments.events.map((e) => [e.type, (e.data as { rollback?: { status?: string } }).rollback?.status])).toEqual([
      ['deployment.rollback', 'failed'],
    ]);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.current(tenant, projectId, 'production')).toBe(b.id);
  });

  it('does nothing without a rollback in progress', async () => {
    const { deps, deployments } = setup();
    const done = completedRecord(0);
    deployments.put(tenant, done);
    await expect(recordRollbackFailure(deps, refOf(done), 'no')).resolves.toEqual(done);
    expect(deployments.calls.save).toBe(0);
  });
});

describe('the repository a deployment deploys', () => {
  const moved = 'file:///repos/moved';
  const moveProject = (projects: ReturnType<typeof setup>['projects']) =>
    projects.update(tenant, projectId, { repository: moved }, isoTime(startOfTests + 1));
  const repositoriesTold = (fake: FakeDeploymentProvider) =>
    fake.calls.flatMap((call) =>
      call.method === 'rollback'
        ? [`rollback current ${call.current.target.project.repository}`, `rollback previous ${call.previous.target.project.repository}`]
        : call.method === 'parseConfig'
          ? []
          : [`${call.method} ${call.target.project.repository}`],
    );

  it("is the project's when it starts, and stays the provider's target after the project's repository changes", async () => {
    const { deps, deployments, projects, fake, placed } = setup();
    const queued = await placed(deploymentRecord());
    expect((await startDeployment(deps, refOf(queued))).repository).toBe(project.repository);
    await moveProject(projects);

    await runDeploy(deps, refOf(queued));
    await runHealthCheck(deps, refOf(queued));

    expect(repositoriesTold(fake)).toEqual([`deploy ${project.repository}`, `checkHealth ${project.repository}`]);
    expect(deployments.stored(tenant, queued.id)?.repository).toBe(project.repository);
  });

  it("one created with a repository (its artifact workflow's) keeps it when it starts", async () => {
    const { deps, deployments, fake, placed } = setup();
    const queued = await placed(deploymentRecord({ repository: moved }));
    await startDeployment(deps, refOf(queued));
    await runDeploy(deps, refOf(queued));
    expect(deployments.stored(tenant, queued.id)?.repository).toBe(moved);
    expect(repositoriesTold(fake)).toEqual([`deploy ${moved}`]);
  });

  it('a rollback tells the deployment gone back to with the repository it deployed, not the one the project names now', async () => {
    const { deps, deployments, projects, fake, placed } = setup();
    const previous = completedRecord(3_600_000, { provider: 'fake', repository: project.repository });
    deployments.put(tenant, previous);
    deployments.setCurrent(tenant, projectId, 'production', previous.id);
    await moveProject(projects);
    const failing = await placed(deployed({ repository: moved }));
    await failFromCatch(deps, refOf(failing), { Error: 'HealthCheckFailed', Cause: 'unhealthy' });

    await runRollback(deps, refOf(failing));

    expect(repositoriesTold(fake)).toEqual([`rollback current ${moved}`, `rollback previous ${project.repository}`]);
  });

  it("one stored before the repository was kept goes on with the project's, as it did", async () => {
    const { deps, deployments, projects, fake } = setup();
    const stored = inProgress();
    expect(stored.repository).toBeUndefined();
    deployments.put(tenant, stored);
    await moveProject(projects);
    await runDeploy(deps, refOf(stored));
    expect(repositoriesTold(fake)).toEqual([`deploy ${moved}`]);
  });
});

describe('a life cycle, through the use cases and the steps', () => {
  it('deploy → healthy → completed; then a failing deployment rolls back automatically to it; the bookkeeping balances', async () => {
    const { deps: stepDeps, deployments, fake, clock } = setup();
    const executor = fakeDeploymentExecutor();
    const deps: DeploymentDeps = {
      deployments,
      workflows: inMemoryWorkflowRepository(),
      providers: fakeProviderCatalogue([fake]),
      executor,
      clock,
    };
    const input = { project_id: projectId, environment: 'production' as const, provider: 'fake', config: { branch: 'main' } };

    const first = await createDeployment(tenant, input, deps);
    await startDeployment(stepDeps, refOf(first));
    await runDeploy(stepDeps, refOf(first));
    fake.script.checkHealth.push({ healthy: false }, { healthy: true });
    expect((await runHealthCheck(stepDeps, refOf(first))).healthy).toBe(false);
    expect((await runHealthCheck(stepDeps, refOf(first))).healthy).toBe(true);
    await completeDeployment(stepDeps, refOf(first));
    expect(deployments.current(tenant, projectId, 'production')).toBe(first.id);

    clock.advance(60_000);
    const second = await createDeployment(tenant, input, deps);
    await startDeployment(stepDeps, refOf(second));
    await runDeploy(stepDeps, refOf(second));
    fake.behaviour.healthy = false;
    clock.advance(121_000);
    expect(await runHealthCheck(stepDeps, refOf(second))).toMatchObject({ healthy: false, expired: true });
    expect(await failFromCatch(stepDeps, refOf(second), { Error: 'HealthCheckFailed', Cause: 'unhealthy' })).toEqual({ rollback: true });
    await runRollback(stepDeps, refOf(second));

    expect(deployments.stored(tenant, second.id)).toMatchObject({
      status: 'failed',
      rolled_back_to: first.id,
      rollback: { status: 'completed', trigger: 'automatic' },
    });
    expect(deployments.stored(tenant, first.id)).toMatchObject({ status: 'completed', rolled_back_from: second.id });
    expect(deployments.current(tenant, projectId, 'production')).toBe(first.id);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events.map((e) => `${e.type} ${e.deploymentId === first.id ? 'first' : 'second'}`)).toEqual([
      'deployment.started first',
      'deployment.completed first',
      'deployment.started second',
      'deployment.failed second',
      'deployment.rollback second',
    ]);
    // The place is free: a third deployment may start.
    await expect(createDeployment(tenant, input, deps)).resolves.toMatchObject({ status: 'queued' });
  });
});
