import { fileURLToPath } from 'node:url';
import { systemClock } from '../../../functions/core/clock';
import {
  completeDeployment,
  failFromCatch,
  recordRollbackFailure,
  runDeploy,
  runHealthCheck,
  runRollback,
  startDeployment,
  type StepDeps,
} from '../../../functions/core/deployments/deployment-steps';
import type { DeploymentRef } from '../../../functions/core/deployments/deployment';
import { DeploymentProviderError, DeploymentTransientError } from '../../../functions/core/deployments/providers/provider';
import { failureMessage } from '../../../functions/core/workflows/stages/control';
import { completedRecord, deploymentRecord, project, projectId, refOf, tenant } from '../fakes/deployment-fixtures';
import { fakeDeploymentProvider } from '../fakes/deployment-provider';
import { inMemoryDeploymentRepository } from '../fakes/deployment-repository';
import { inMemoryProjectRepository } from '../fakes/project-repository';
import { itValidatesDefinition, type LocalMachine, runToEnd, startLocalMachine, stubFunctionArn } from '../step-functions/local-machine';

/**
 * The real deployment state machine, run by the local Step Functions endpoint: first with stub
 * Lambda functions answering as the real handlers do (recording every call), then with the real
 * step functions over in-memory fakes.
 */

const definitionFile = fileURLToPath(new URL('../../../state-machines/deployment.asl.json', import.meta.url));

const arns = {
  control: stubFunctionArn('deployment-control'),
  deploy: stubFunctionArn('deploy'),
  health: stubFunctionArn('health'),
  rollback: stubFunctionArn('rollback'),
};
const substitutions = {
  DeploymentControlFunctionArn: arns.control,
  DeployFunctionArn: arns.deploy,
  HealthCheckFunctionArn: arns.health,
  RollbackFunctionArn: arns.rollback,
};

type StepFunction = 'deploy' | 'health' | 'rollback' | `control:${'start' | 'complete' | 'fail' | 'rollback_failed'}`;

interface Call {
  name: StepFunction;
  input: Record<string, unknown>;
}

const named = (name: string, message: string): Error => {
  const error = new Error(message);
  error.name = name;
  return error;
};

interface Scenario {
  /** What the health function answers on each call; the last one repeats. */
  health: Array<{ healthy: boolean; expired: boolean }>;
  /** What control `fail` answers. */
  rollback: boolean;
  /** A function that throws: `times` calls (Infinity: always) throw, then it answers as usual. */
  throwing?: { fn: StepFunction; error: () => Error; times: number };
}

const deploymentRef = { account_id: 'acct_1', mode: 'test', id: 'dep_x' };
/** Whole seconds, as a Wait SecondsPath needs; the local runtime scales it by timeScale. */
const intervalSeconds = 1;

const harness = () => {
  const calls: Call[] = [];
  const scenario: Scenario = { health: [{ healthy: true, expired: false }], rollback: false };
  let healthCalls = 0;
  let thrown = 0;

  const record = (name: StepFunction, input: Record<string, unknown>) => {
    calls.push({ name, input });
    const throwing = scenario.throwing;
    if (throwing?.fn === name && thrown < throwing.times) {
      thrown += 1;
      throw throwing.error();
    }
  };

  const handlers = {
    [arns.control]: async (raw: unknown) => {
      const input = raw as Record<string, unknown>;
      record(`control:${input.action as 'start'}`, input);
      return input.action === 'fail' ? { rollback: scenario.rollback } : {};
    },
    [arns.deploy]: async (raw: unknown) => {
      record('deploy', raw as Record<string, unknown>);
      return { interval_seconds: intervalSeconds };
    },
    [arns.health]: async (raw: unknown) => {
      record('health', raw as Record<string, unknown>);
      const answer = scenario.health[Math.min(healthCalls, scenario.health.length - 1)]!;
      healthCalls += 1;
      return { ...answer, interval_seconds: intervalSeconds };
    },
    [arns.rollback]: async (raw: unknown) => {
      record('rollback', raw as Record<string, unknown>);
      return {};
    },
  };
  return { calls, scenario, handlers };
};

describe('state-machines/deployment.asl.json', () => {
  itValidatesDefinition(definitionFile, substitutions, 'RollbackFunctionArn');
});

describe('the deployment state machine with stub functions, run locally', () => {
  let machine: LocalMachine;
  let stub: ReturnType<typeof harness>;

  beforeEach(async () => {
    stub = harness();
    machine = await startLocalMachine({ name: 'deployment', definitionFile, substitutions, taskHandlers: stub.handlers });
  });

  afterEach(() => machine.close());

  const names = () => stub.calls.map((call) => call.name);
  const callsOf = (name: StepFunction) => stub.calls.filter((call) => call.name === name);
  const run = (action: 'deploy' | 'rollback' = 'deploy') =>
    runToEnd(
      machine.client,
      machine.stateMachineArn,
      { action, deployment: deploymentRef },
      action === 'deploy' ? 'dep_x' : 'dep_x-rollback-1',
      () => names().join(' → '),
    );

  it('healthy after one unhealthy probe: start, deploy, health until healthy, complete; SUCCEEDED', async () => {
    stub.scenario.health = [
      { healthy: false, expired: false },
      { healthy: true, expired: false },
    ];
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'health', 'control:complete']);
    expect(described.status).toBe('SUCCEEDED');
    expect(callsOf('control:start')[0]?.input).toEqual({ action: 'start', deployment: deploymentRef });
    for (const fn of ['deploy', 'health'] as const)
      for (const call of callsOf(fn)) expect(call.input).toEqual({ deployment: deploymentRef });
    expect(callsOf('control:complete')[0]?.input).toEqual({ action: 'complete', deployment: deploymentRef });
    expect(JSON.parse(described.output ?? 'null')).toEqual({
      action: 'deploy',
      deployment: deploymentRef,
      health: { healthy: true, expired: false, interval_seconds: intervalSeconds },
    });
  });

  it('unhealthy until expired: fail with HealthCheckFailed; rolls back when fail says so; FAILED DeploymentFailed', async () => {
    stub.scenario.health = [
      { healthy: false, expired: false },
      { healthy: false, expired: false },
      { healthy: false, expired: true },
    ];
    stub.scenario.rollback = true;
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'health', 'health', 'control:fail', 'rollback']);
    expect(callsOf('control:fail')[0]?.input).toEqual({
      action: 'fail',
      deployment: deploymentRef,
      error: { Error: 'HealthCheckFailed', Cause: expect.stringContaining('health deadline') },
    });
    expect(callsOf('rollback')[0]?.input).toEqual({ deployment: deploymentRef });
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it('unhealthy until expired, fail answering no rollback: no rollback; FAILED', async () => {
    stub.scenario.health = [{ healthy: false, expired: true }];
    stub.scenario.rollback = false;
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'control:fail']);
    expect(callsOf('rollback')).toEqual([]);
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it('deploy throwing DeploymentTransientError twice: retried, then completes', async () => {
    stub.scenario.throwing = { fn: 'deploy', error: () => new DeploymentTransientError('throttled'), times: 2 };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'deploy', 'deploy', 'health', 'control:complete']);
    expect(described.status).toBe('SUCCEEDED');
    expect(machine.local.executions()[0]).toMatchObject({ status: 'SUCCEEDED', retries: 2 });
  });

  it('deploy throwing DeploymentTransientError every time: 3 retries, then recorded as a failure', async () => {
    stub.scenario.throwing = { fn: 'deploy', error: () => new DeploymentTransientError('still throttled'), times: Infinity };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'deploy', 'deploy', 'deploy', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toEqual({ Error: 'DeploymentTransientError', Cause: 'still throttled' });
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it('deploy throwing DeploymentProviderError: not retried, recorded with its name and message; FAILED', async () => {
    stub.scenario.throwing = { fn: 'deploy', error: () => new DeploymentProviderError('the hook answered 500'), times: Infinity };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input).toEqual({
      action: 'fail',
      deployment: deploymentRef,
      error: { Error: 'DeploymentProviderError', Cause: 'the hook answered 500' },
    });
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it('deploy throwing DeploymentProviderError, fail answering rollback: the rollback runs', async () => {
    stub.scenario.throwing = { fn: 'deploy', error: () => new DeploymentProviderError('half deployed'), times: Infinity };
    stub.scenario.rollback = true;
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'control:fail', 'rollback']);
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it('start failing: recorded, nothing deployed', async () => {
    stub.scenario.throwing = {
      fn: 'control:start',
      error: () => named('DeploymentStateError', 'deployment dep_x not found'),
      times: Infinity,
    };
    const described = await run();
    expect(names()).toEqual(['control:start', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toEqual({ Error: 'DeploymentStateError', Cause: 'deployment dep_x not found' });
    expect(described.status).toBe('FAILED');
  });

  it('health throwing a provider error: recorded as a failure, no further probe', async () => {
    stub.scenario.throwing = { fn: 'health', error: () => new DeploymentProviderError('probe refused'), times: Infinity };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'control:fail']);
    expect(described.status).toBe('FAILED');
  });

  it('complete failing: recorded as a failure', async () => {
    stub.scenario.throwing = { fn: 'control:complete', error: () => named('Error', 'boom'), times: Infinity };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'control:complete', 'control:fail']);
    expect(described.status).toBe('FAILED');
  });

  it('recording the failure is retried on any error', async () => {
    stub.scenario.health = [{ healthy: false, expired: true }];
    stub.scenario.throwing = { fn: 'control:fail', error: () => named('Lambda.Unknown', 'cold start'), times: 2 };
    const described = await run();
    expect(callsOf('control:fail')).toHaveLength(3);
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
  });

  it("action 'rollback': the rollback function only; SUCCEEDED", async () => {
    const described = await run('rollback');
    expect(names()).toEqual(['rollback']);
    expect(callsOf('rollback')[0]?.input).toEqual({ deployment: deploymentRef });
    expect(described.status).toBe('SUCCEEDED');
  });

  it("action 'rollback' throwing: rollback_failed recorded with the error; FAILED RollbackFailed", async () => {
    stub.scenario.throwing = { fn: 'rollback', error: () => new DeploymentProviderError('alias missing'), times: Infinity };
    const described = await run('rollback');
    expect(names()).toEqual(['rollback', 'control:rollback_failed']);
    expect(callsOf('control:rollback_failed')[0]?.input).toEqual({
      action: 'rollback_failed',
      deployment: deploymentRef,
      error: { Error: 'DeploymentProviderError', Cause: 'alias missing' },
    });
    expect(described).toMatchObject({ status: 'FAILED', error: 'RollbackFailed' });
  });

  it("action 'rollback' throwing a transient error twice: retried, then SUCCEEDED", async () => {
    stub.scenario.throwing = { fn: 'rollback', error: () => new DeploymentTransientError('conflict'), times: 2 };
    const described = await run('rollback');
    expect(names()).toEqual(['rollback', 'rollback', 'rollback']);
    expect(described.status).toBe('SUCCEEDED');
  });

  it('an automatic rollback throwing: rollback_failed recorded; FAILED RollbackFailed', async () => {
    stub.scenario.health = [{ healthy: false, expired: true }];
    stub.scenario.rollback = true;
    stub.scenario.throwing = { fn: 'rollback', error: () => new DeploymentProviderError('no published version'), times: Infinity };
    const described = await run();
    expect(names()).toEqual(['control:start', 'deploy', 'health', 'control:fail', 'rollback', 'control:rollback_failed']);
    expect(callsOf('control:rollback_failed')[0]?.input.error).toEqual({ Error: 'DeploymentProviderError', Cause: 'no published version' });
    expect(described).toMatchObject({ status: 'FAILED', error: 'RollbackFailed' });
  });
});

describe('the deployment state machine with the real steps over fakes, run locally', () => {
  let machine: LocalMachine;
  const deployments = inMemoryDeploymentRepository();
  const projects = inMemoryProjectRepository();
  const fake = fakeDeploymentProvider('fake');
  // The health deadline (10 s × 0.01) passes in real time; the waits (1 s × 0.01) too.
  const deps: StepDeps = { deployments, projects, provider: () => fake, clock: systemClock, timeScale: 0.01 };
  const refIn = (input: unknown) => (input as { deployment: DeploymentRef }).deployment;

  /** What the four handlers of functions/handlers/deployment-steps do, without their environment. */
  const handlers = {
    [arns.control]: async (raw: unknown) => {
      const input = raw as { action: string; deployment: DeploymentRef; error?: { Error?: string; Cause?: string } };
      if (input.action === 'start') await startDeployment(deps, input.deployment);
      if (input.action === 'complete') await completeDeployment(deps, input.deployment);
      if (input.action === 'fail') return failFromCatch(deps, input.deployment, input.error ?? {});
      if (input.action === 'rollback_failed') await recordRollbackFailure(deps, input.deployment, failureMessage(input.error ?? {}));
      return {};
    },
    [arns.deploy]: (input: unknown) => runDeploy(deps, refIn(input)),
    [arns.health]: (input: unknown) => runHealthCheck(deps, refIn(input)),
    [arns.rollback]: async (input: unknown) => {
      await runRollback(deps, refIn(input));
      return {};
    },
  };

  beforeAll(async () => {
    deployments.addProject(tenant, projectId);
    await projects.create(tenant, project);
    machine = await startLocalMachine({ name: 'deployment', definitionFile, substitutions, taskHandlers: handlers });
  });

  afterAll(() => machine.close());

  const config = { health_timeout_seconds: 10, health_interval_seconds: 1 };
  const run = (action: 'deploy' | 'rollback', id: string, name = id) =>
    runToEnd(machine.client, machine.stateMachineArn, { action, deployment: refOf({ id }) }, name, () =>
      fake.calls.map((call) => call.method).join(' → '),
    );

  it('a healthy deployment completes and becomes current; a failing one after it is rolled back to it automatically', async () => {
    // A deadline far enough (30 s in real time) that a busy machine cannot reach it between the two probes.
    const patient = { health_timeout_seconds: 3_000, health_interval_seconds: 1 };
    const first = deploymentRecord({ config: patient, provider: 'fake' }, Date.now() - 1_000);
    expect(await deployments.create(tenant, first)).toBe('created');
    fake.script.checkHealth.push({ healthy: false }, { healthy: true });
    expect((await run('deploy', first.id)).status).toBe('SUCCEEDED');
    expect(deployments.stored(tenant, first.id)).toMatchObject({
      status: 'completed',
      health_checks: [{ healthy: false }, { healthy: true }],
    });
    expect(deployments.current(tenant, projectId, 'production')).toBe(first.id);

    const second = deploymentRecord({ config, provider: 'fake' }, Date.now());
    expect(await deployments.create(tenant, second)).toBe('created');
    fake.behaviour.healthy = false;
    const described = await run('deploy', second.id);
    expect(described).toMatchObject({ status: 'FAILED', error: 'DeploymentFailed' });
    const failed = deployments.stored(tenant, second.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { step: 'health_check', message: expect.stringContaining('health deadline') },
      rolled_back_to: first.id,
      rollback: { status: 'completed', trigger: 'automatic', to: first.id },
    });
    // Probed until the deadline (100 ms), one probe per scaled second at most.
    expect(failed?.health_checks.length).toBeGreaterThan(1);
    expect(fake.callsOf('rollback')).toHaveLength(1);
    expect(deployments.stored(tenant, first.id)).toMatchObject({ status: 'completed', rolled_back_from: second.id });
    expect(deployments.current(tenant, projectId, 'production')).toBe(first.id);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events.map((event) => event.type)).toEqual([
      'deployment.started',
      'deployment.completed',
      'deployment.started',
      'deployment.failed',
      'deployment.rollback',
    ]);
  });

  it('a requested rollback makes the previous deployment current again', async () => {
    fake.behaviour.healthy = true;
    const older = completedRecord(-10_000, { provider: 'fake', config });
    const newer = completedRecord(-20_000, { provider: 'fake', config });
    deployments.put(tenant, older);
    deployments.put(tenant, newer);
    deployments.setCurrent(tenant, projectId, 'production', newer.id);
    const requested = {
      ...newer,
      rollback: {
        status: 'in_progress' as const,
        to: older.id,
        requested_at: new Date().toISOString(),
        completed_at: null,
        error: null,
        trigger: 'requested' as const,
      },
      revision: newer.revision + 1,
    };
    expect(await deployments.beginRollback(tenant, newer, requested)).toBe('started');

    const described = await run('rollback', newer.id, `${newer.id}-rollback`);
    expect(described.status).toBe('SUCCEEDED');
    expect(deployments.stored(tenant, newer.id)).toMatchObject({
      status: 'rolled_back',
      rolled_back_to: older.id,
      rollback: { status: 'completed' },
    });
    expect(deployments.current(tenant, projectId, 'production')).toBe(older.id);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
  });

  it('a requested rollback the provider refuses is recorded as failed and the lock released', async () => {
    const current = deployments.current(tenant, projectId, 'production')!;
    const stored = deployments.stored(tenant, current)!;
    const earlier = completedRecord(-5_000, { provider: 'fake', config });
    deployments.put(tenant, earlier);
    const requested = {
      ...stored,
      rollback: {
        status: 'in_progress' as const,
        to: earlier.id,
        requested_at: new Date().toISOString(),
        completed_at: null,
        error: null,
        trigger: 'requested' as const,
      },
      revision: stored.revision + 1,
    };
    expect(await deployments.beginRollback(tenant, stored, requested)).toBe('started');
    fake.script.rollback.push(new DeploymentProviderError('the rollback hook answered 410'));

    const described = await run('rollback', current, `${current}-rollback-2`);
    expect(described).toMatchObject({ status: 'FAILED', error: 'RollbackFailed' });
    expect(deployments.stored(tenant, current)).toMatchObject({
      status: 'completed',
      rollback: { status: 'failed', error: 'the rollback hook answered 410' },
    });
    expect(deployments.current(tenant, projectId, 'production')).toBe(current);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
  });
});
