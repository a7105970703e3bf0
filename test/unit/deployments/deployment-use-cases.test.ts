import { isoTime } from '../../../functions/core/clock';
import type { Deployment } from '../../../functions/core/deployments/deployment';
import {
  deploymentConfigs,
  type DeploymentEnvironment,
  type DeploymentProviderName,
} from '../../../functions/adapters/deployments/provider-configs';
import {
  createDeployment,
  type DeploymentDeps,
  getDeployment,
  listDeployments,
  type NewDeployment,
  type ProviderCatalogue,
  requestRollback,
} from '../../../functions/core/deployments/deployment-use-cases';
import { isId, newId } from '../../../functions/core/ids';
import { deploymentSnapshot, viewOfDeployment } from '../../../functions/core/deployments/snapshot';
import type { Tenant } from '../../../functions/core/tenancy';
import { apiErrorOf } from '../fakes/api-error';
import { controlledClock, startOfTests } from '../fakes/clock';
import { fakeDeploymentExecutor } from '../fakes/deployment-executor';
import { bundle, completedRecord, deploymentRecord, projectId, tenant, workflowRecord } from '../fakes/deployment-fixtures';
import { defaultHealthSettings, fakeDeploymentProvider, fakeProviderCatalogue } from '../fakes/deployment-provider';
import { inMemoryDeploymentRepository } from '../fakes/deployment-repository';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';
import { statusOf } from '../../../functions/http/error-status';

const setup = () => {
  const deployments = inMemoryDeploymentRepository();
  deployments.addProject(tenant, projectId);
  const workflows = inMemoryWorkflowRepository();
  const hook = fakeDeploymentProvider('deploy-hook');
  const lambda = fakeDeploymentProvider('aws-lambda');
  const executor = fakeDeploymentExecutor();
  const clock = controlledClock();
  const deps: DeploymentDeps = { deployments, workflows, providers: fakeProviderCatalogue([hook, lambda]), executor, clock };
  return { deployments, workflows, hook, lambda, executor, clock, deps };
};

const input = (overrides: Partial<NewDeployment> = {}): NewDeployment => ({
  project_id: projectId,
  environment: 'production',
  provider: 'deploy-hook',
  config: { branch: 'main', url: 'https://hooks.example.test/deploy' },
  ...overrides,
});

const refOf = (id: string, of: Tenant = tenant) => ({ account_id: of.accountId, mode: of.mode, id });

describe('createDeployment', () => {
  it('stores a queued deployment with the defaults, holding the lock and counting as active; no event yet; starts its execution named after it', async () => {
    const { deps, deployments, executor, hook } = setup();
    const deployment = await createDeployment(tenant, input(), deps);

    expect(isId('deployment', deployment.id)).toBe(true);
    const at = isoTime(startOfTests);
    expect(deployment).toEqual({
      id: deployment.id,
      project_id: projectId,
      environment: 'production',
      provider: 'deploy-hook',
      branch: 'main',
      auto_rollback: true,
      // The provider's parsed config: its own fields with defaults, not the common ones.
      config: { ...defaultHealthSettings, url: 'https://hooks.example.test/deploy' },
      artifact: null,
      status: 'queued',
      url: null,
      version: null,
      deployed: null,
      health_checks: [],
      health_deadline_at: null,
      rolled_back_from: null,
      rolled_back_to: null,
      rollback: null,
      error: null,
      created_at: at,
      updated_at: at,
      started_at: null,
      completed_at: null,
      duration_ms: null,
      revision: 1,
    } satisfies Deployment);
    expect(deployments.stored(tenant, deployment.id)).toEqual(deployment);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBe(deployment.id);
    expect(deployments.activeCount(tenant, projectId)).toBe(1);
    expect(deployments.events).toEqual([]);

    expect(hook.callsOf('parseConfig')).toEqual([{ method: 'parseConfig', config: input().config, context: { mode: 'test' } }]);
    expect(executor.started).toEqual([
      { input: { action: 'deploy', deployment: { account_id: tenant.accountId, mode: 'test', id: deployment.id } }, name: deployment.id },
    ]);
  });

  it("deploys a workflow's package (its auto_deploy) only while the workflow runs: once cancelled, a 409 and nothing stored or started", async () => {
    const { deps, deployments, executor } = setup();
    const workflowId = newId('workflow', Date.parse('2026-03-01T09:00:00.000Z'));
    deployments.stopWorkflow(tenant, workflowId);
    const error = await apiErrorOf(
      createDeployment(tenant, input(), deps, { artifact: { workflow_id: workflowId, bundle }, repository: null }),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('The workflow is no longer running; nothing was deployed.');
    expect(deployments.calls.create).toBe(1);
    expect(await deployments.activeCount(tenant, projectId)).toBe(0);
    expect(executor.started).toEqual([]);
  });

  it('keeps auto_rollback false and the branch given', async () => {
    const { deps } = setup();
    const deployment = await createDeployment(tenant, input({ config: { branch: 'release/2.0', auto_rollback: false } }), deps);
    expect(deployment.auto_rollback).toBe(false);
    expect(deployment.branch).toBe('release/2.0');
    expect(deployment.config).toEqual({ ...defaultHealthSettings });
  });

  it('passes the tenant mode to the provider as the config context', async () => {
    const { deps, deployments, hook } = setup();
    const live: Tenant = { ...tenant, mode: 'live' };
    deployments.addProject(live, projectId);
    await createDeployment(live, input(), deps);
    expect(hook.callsOf('parseConfig')[0]?.context).toEqual({ mode: 'live' });
  });

  it('answers 422 for an unknown provider, naming the offered ones; nothing parsed, stored or started', async () => {
    const { deps, deployments, executor, hook, lambda } = setup();
    const error = await apiErrorOf(createDeployment(tenant, input({ provider: 'heroku' }), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.errors).toEqual([{ field: 'provider', issue: 'must be one of deploy-hook, aws-lambda' }]);
    expect(hook.calls).toEqual([]);
    expect(lambda.calls).toEqual([]);
    expect(deployments.calls.create).toBe(0);
    expect(executor.started).toEqual([]);
  });

  it.each(['not-a-project', 'proj_short', 'dep_01JD2Q8X4B6V3C1N0M9K8J7H6G', ''])(
    'answers 422 on project_id for the malformed project id %p, without asking the repository',
    async (malformed) => {
      const { deps, deployments, executor } = setup();
      const error = await apiErrorOf(createDeployment(tenant, input({ project_id: malformed }), deps));
      expect(statusOf(error)).toBe(422);
      expect(error.errors).toEqual([{ field: 'project_id', issue: expect.any(String) }]);
      expect(deployments.calls.create).toBe(0);
      expect(executor.started).toEqual([]);
    },
  );

  it('reports an unknown provider and a malformed project id together', async () => {
    const { deps } = setup();
    const error = await apiErrorOf(createDeployment(tenant, input({ provider: 'heroku', project_id: 'nope' }), deps));
    expect(error.errors?.map((issue) => issue.field)).toEqual(['provider', 'project_id']);
  });

  it("passes the provider's config issues through as they are; nothing stored or started", async () => {
    const { deps, deployments, executor, hook } = setup();
    const issues = [
      { field: 'config.url', issue: 'must be an https URL' },
      { field: 'config.secret', issue: 'is required' },
    ];
    hook.behaviour.configIssues = issues;
    const error = await apiErrorOf(createDeployment(tenant, input(), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.errors).toEqual(issues);
    expect(error.message).toContain('config.url');
    expect(deployments.calls.create).toBe(0);
    expect(executor.started).toEqual([]);
  });

  describe("aws-lambda targets by mode, with the API's real provider configs", () => {
    const liveFunction = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-api';
    const testFunction = 'arn:aws:lambda:eu-west-1:210987654321:function:shop-api-test';
    const live: Tenant = { ...tenant, mode: 'live' };
    /** The catalogue as the API wires it (functions/handlers/deployments/deps.ts), from the environment the stack sets. */
    const withTargets = (env: DeploymentEnvironment) => {
      const context = setup();
      const configs = deploymentConfigs(env);
      const providers: ProviderCatalogue = {
        names: () => [...configs.keys()],
        parseConfig: (name, config, configContext) => configs.get(name as DeploymentProviderName)!.parseConfig(config, configContext),
      };
      context.deployments.addProject(live, projectId);
      return { ...context, deps: { ...context.deps, providers } };
    };
    const lambdaInput = (functionName: string) =>
      input({
        provider: 'aws-lambda',
        config: { branch: 'main', function_name: functionName, code: { s3_bucket: 'acme-builds', s3_key: 'shop-api/42.zip' } },
      });

    it("a test-mode tenant's deployment to a live-only target is a 422 on config.function_name, nothing stored or started; the live tenant's is created", async () => {
      const { deps, deployments, executor } = withTargets({
        DEPLOY_LAMBDA_TARGETS: liveFunction,
        DEPLOY_LAMBDA_TEST_TARGETS: testFunction,
      });
      const error = await apiErrorOf(createDeployment(tenant, lambdaInput(liveFunction), deps));
      expect(statusOf(error)).toBe(422);
      expect(error.errors).toEqual([
        { field: 'config.function_name', issue: `is not a test-mode deploy target of this deployment; allowed: ${testFunction}` },
      ]);
      expect(deployments.calls.create).toBe(0);
      expect(executor.started).toEqual([]);

      const created = await createDeployment(live, lambdaInput(liveFunction), deps);
      expect(created).toMatchObject({ provider: 'aws-lambda', status: 'queued', config: { function_name: liveFunction, alias: 'live' } });
      expect(deployments.stored(live, created.id)).toEqual(created);
      expect(executor.started).toEqual([{ input: { action: 'deploy', deployment: refOf(created.id, live) }, name: created.id }]);
    });

    it('the test-mode tenant deploys to a test-mode target, which the live tenant may not', async () => {
      const { deps, deployments } = withTargets({ DEPLOY_LAMBDA_TARGETS: liveFunction, DEPLOY_LAMBDA_TEST_TARGETS: testFunction });
      const created = await createDeployment(tenant, lambdaInput('shop-api-test'), deps);
      expect(created.config).toMatchObject({ function_name: testFunction });
      expect(deployments.stored(tenant, created.id)).toEqual(created);
      const error = await apiErrorOf(createDeployment(live, lambdaInput(testFunction), deps));
      expect(statusOf(error)).toBe(422);
      expect(error.errors).toEqual([
        { field: 'config.function_name', issue: `is not a live-mode deploy target of this deployment; allowed: ${liveFunction}` },
      ]);
    });

    it('without DEPLOY_LAMBDA_TEST_TARGETS every test-mode aws-lambda deployment is a 422 (allowed: none)', async () => {
      const { deps, deployments, executor } = withTargets({ DEPLOY_LAMBDA_TARGETS: liveFunction });
      for (const name of [liveFunction, 'shop-api']) {
        const error = await apiErrorOf(createDeployment(tenant, lambdaInput(name), deps));
        expect([name, statusOf(error), error.errors]).toEqual([
          name,
          422,
          [{ field: 'config.function_name', issue: 'is not a test-mode deploy target of this deployment; allowed: none' }],
        ]);
      }
      expect(deployments.calls.create).toBe(0);
      expect(executor.started).toEqual([]);
    });

    it('a function in both lists is deployable by both modes', async () => {
      const both = `${liveFunction},${testFunction}`;
      const { deps } = withTargets({ DEPLOY_LAMBDA_TARGETS: both, DEPLOY_LAMBDA_TEST_TARGETS: liveFunction });
      expect((await createDeployment(tenant, lambdaInput(liveFunction), deps)).config).toMatchObject({ function_name: liveFunction });
      expect((await createDeployment(live, lambdaInput(liveFunction), deps)).config).toMatchObject({ function_name: liveFunction });
    });
  });

  describe('artifact', () => {
    it("stores a completed workflow's bundle of the same project", async () => {
      const { deps, workflows } = setup();
      const workflow = workflowRecord({}, { bundle });
      workflows.put(tenant, workflow);
      const deployment = await createDeployment(tenant, input({ artifact: workflow.id }), deps);
      expect(deployment.artifact).toEqual({ workflow_id: workflow.id, bundle });
    });

    it('deploys it with the repository that workflow worked on, whatever the project names now', async () => {
      const { deps, workflows, deployments } = setup();
      const workflow = workflowRecord({}, { bundle, repository: 'file:///repos/where-the-workflow-ran' });
      workflows.put(tenant, workflow);
      const deployment = await createDeployment(tenant, input({ artifact: workflow.id }), deps);
      expect(deployments.stored(tenant, deployment.id)?.repository).toBe('file:///repos/where-the-workflow-ran');

      // A workflow stored before it recorded its repository: none pinned, the deployment takes the project's when it starts.
      const older = workflowRecord({ id: newId('workflow', Date.parse('2026-03-01T08:00:00.000Z')) }, { bundle });
      delete (older.outputs as Partial<typeof older.outputs>).repository;
      workflows.put(tenant, older);
      const ofOlder = await createDeployment(tenant, input({ artifact: older.id, environment: 'staging' }), deps);
      expect(deployments.stored(tenant, ofOlder.id)).not.toHaveProperty('repository');
    });

    const artifactError = async (setupWorkflow: (context: ReturnType<typeof setup>) => string) => {
      const context = setup();
      const artifact = setupWorkflow(context);
      const error = await apiErrorOf(createDeployment(tenant, input({ artifact }), context.deps));
      expect(statusOf(error)).toBe(422);
      expect(error.errors).toEqual([{ field: 'artifact', issue: expect.any(String) }]);
      expect(context.deployments.calls.create).toBe(0);
      expect(context.executor.started).toEqual([]);
      return error.errors?.[0]?.issue ?? '';
    };

    it('answers 422 for a malformed workflow id', async () => {
      await artifactError(() => 'not-a-workflow');
    });

    it('answers 422 for an unknown workflow', async () => {
      await artifactError(() => newId('workflow', startOfTests));
    });

    it("answers 422 for another project's workflow", async () => {
      await artifactError(({ workflows }) => {
        const workflow = workflowRecord({ project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6Z' }, { bundle });
        workflows.put(tenant, workflow);
        return workflow.id;
      });
    });

    it("answers 422 for a workflow of another tenant's mode", async () => {
      await artifactError(({ workflows }) => {
        const workflow = workflowRecord({}, { bundle });
        workflows.put({ ...tenant, mode: 'live' }, workflow);
        return workflow.id;
      });
    });

    it.each(['queued', 'running', 'failed', 'cancelled'] as const)('answers 422 for a %s workflow, saying so', async (status) => {
      const issue = await artifactError(({ workflows }) => {
        const workflow = workflowRecord({ status }, { bundle });
        workflows.put(tenant, workflow);
        return workflow.id;
      });
      expect(issue).toContain(status);
    });

    it('answers 422 for a completed workflow without a bundle', async () => {
      const issue = await artifactError(({ workflows }) => {
        const workflow = workflowRecord({}, { bundle: null });
        workflows.put(tenant, workflow);
        return workflow.id;
      });
      expect(issue).toContain('no package output');
    });
  });

  it('answers 422 on project_id for a well-formed id the repository does not know; nothing stored or started', async () => {
    const { deps, deployments, executor } = setup();
    const error = await apiErrorOf(createDeployment(tenant, input({ project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6Z' }), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.errors).toEqual([{ field: 'project_id', issue: expect.any(String) }]);
    expect(deployments.calls.create).toBe(1);
    expect(deployments.all()).toEqual([]);
    expect(executor.started).toEqual([]);
  });

  it('does not see a project of another mode of the same account', async () => {
    const { deps } = setup();
    const error = await apiErrorOf(createDeployment({ ...tenant, mode: 'live' }, input(), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.errors?.[0]?.field).toBe('project_id');
  });

  it('answers 409 while another deployment of the project to the environment is in progress; nothing stored or started', async () => {
    const { deps, deployments, executor } = setup();
    const first = await createDeployment(tenant, input(), deps);
    const error = await apiErrorOf(createDeployment(tenant, input(), deps));
    expect(statusOf(error)).toBe(409);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('production');
    expect(deployments.all().map((d) => d.id)).toEqual([first.id]);
    expect(deployments.activeCount(tenant, projectId)).toBe(1);
    expect(executor.started).toHaveLength(1);
  });

  it('allows one deployment per environment at the same time', async () => {
    const { deps, deployments } = setup();
    await createDeployment(tenant, input(), deps);
    const staging = await createDeployment(tenant, input({ environment: 'staging' }), deps);
    expect(deployments.lockHolder(tenant, projectId, 'staging')).toBe(staging.id);
    expect(deployments.activeCount(tenant, projectId)).toBe(2);
  });

  it('returns the deployment failed on step start, its event stored and the lock released, when its execution cannot be started', async () => {
    const { deps, deployments, executor } = setup();
    executor.behaviour.failStart = true;
    const deployment = await createDeployment(tenant, input(), deps);

    expect(executor.started).toHaveLength(1);
    expect(deployment).toMatchObject({
      status: 'failed',
      error: { step: 'start', message: expect.any(String) },
      completed_at: isoTime(startOfTests),
      duration_ms: 0,
      rollback: null,
      revision: 2,
    });
    expect(deployment.error?.message).not.toContain('StartExecution');
    expect(deployments.stored(tenant, deployment.id)).toEqual(deployment);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    expect(deployments.events.map((event) => event.type)).toEqual(['deployment.failed']);
    expect(deployments.events[0]?.data).toMatchObject({ id: deployment.id, status: 'failed', error: { step: 'start' } });

    // The place is free again.
    executor.behaviour.failStart = false;
    await expect(createDeployment(tenant, input(), deps)).resolves.toMatchObject({ status: 'queued' });
  });
});

describe('getDeployment and listDeployments', () => {
  it('answers the stored deployment', async () => {
    const { deps } = setup();
    const created = await createDeployment(tenant, input(), deps);
    await expect(getDeployment(tenant, created.id, deps)).resolves.toEqual(created);
  });

  it('answers 404 for a malformed id without a lookup, an unknown id, and a deployment of another mode', async () => {
    const { deps } = setup();
    const created = await createDeployment(tenant, input(), deps);
    for (const id of ['nope', `${created.id}x`, newId('deployment', startOfTests + 5)]) {
      const error = await apiErrorOf(getDeployment(tenant, id, deps));
      expect([id, statusOf(error), error.code]).toEqual([id, 404, 'not_found']);
    }
    expect(statusOf(await apiErrorOf(getDeployment({ ...tenant, mode: 'live' }, created.id, deps)))).toBe(404);
  });

  it('lists nothing for a malformed project filter, without asking the repository', async () => {
    const { deps, deployments } = setup();
    await createDeployment(tenant, input(), deps);
    const query = { page: 1, perPage: 10, sort: 'created_at' as const, order: 'desc' as const };
    await expect(listDeployments(tenant, query, { project_id: 'nope' }, { deployments })).resolves.toEqual({ items: [], total: 0 });
    await expect(listDeployments(tenant, query, { project_id: projectId }, { deployments })).resolves.toMatchObject({ total: 1 });
  });
});

describe('requestRollback', () => {
  /** A (older, completed), B (current, completed): B may go back to A. */
  const history = (overrides: { a?: Partial<Deployment>; b?: Partial<Deployment> } = {}) => {
    const context = setup();
    const a = completedRecord(7_200_000, { provider: 'deploy-hook', ...overrides.a });
    const b = completedRecord(3_600_000, { provider: 'deploy-hook', ...overrides.b });
    context.deployments.put(tenant, a);
    context.deployments.put(tenant, b);
    context.deployments.setCurrent(tenant, projectId, 'production', b.id);
    return { ...context, a, b };
  };

  it('marks the current deployment with a requested rollback to the previous completed one, takes the lock, and starts a rollback execution', async () => {
    const { deps, deployments, executor, clock, a, b } = history();
    clock.advance(5_000);
    const now = startOfTests + 5_000;
    const answered = await requestRollback(tenant, b.id, deps);

    expect(answered).toEqual({
      ...b,
      rollback: { status: 'in_progress', to: a.id, requested_at: isoTime(now), completed_at: null, error: null, trigger: 'requested' },
      updated_at: isoTime(now),
      revision: b.revision + 1,
    });
    expect(answered.status).toBe('completed');
    expect(deployments.stored(tenant, b.id)).toEqual(answered);
    expect(deployments.stored(tenant, a.id)).toEqual(a);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBe(b.id);
    // Still current until the rollback is done; no event until then.
    expect(deployments.current(tenant, projectId, 'production')).toBe(b.id);
    expect(deployments.events).toEqual([]);
    expect(executor.started).toEqual([{ input: { action: 'rollback', deployment: refOf(b.id) }, name: `${b.id}-rollback-${now}` }]);
  });

  it('skips earlier deployments that are not completed', async () => {
    const { deps, deployments, a, b } = history();
    const failedBetween = deploymentRecord({ status: 'failed', provider: 'deploy-hook' }, startOfTests - 5_000_000);
    deployments.put(tenant, failedBetween);
    expect((await requestRollback(tenant, b.id, deps)).rollback?.to).toBe(a.id);
  });

  it.each(['queued', 'in_progress', 'failed', 'rolled_back'] as const)(
    'answers 409 for a %s deployment; nothing changes',
    async (status) => {
      const { deps, deployments, executor, b } = history({ b: { status } });
      const error = await apiErrorOf(requestRollback(tenant, b.id, deps));
      expect(statusOf(error)).toBe(409);
      expect(error.message).toContain(status);
      expect(deployments.stored(tenant, b.id)).toEqual(b);
      expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
      expect(executor.started).toEqual([]);
    },
  );

  it('answers 409 when there is no earlier completed deployment to go back to', async () => {
    const { deps, deployments, executor, b } = history({ a: { status: 'rolled_back' } });
    // Later and other-environment completed deployments do not count either.
    deployments.put(tenant, completedRecord(1_000, { provider: 'deploy-hook' }));
    deployments.put(tenant, completedRecord(9_000_000, { environment: 'staging' }));
    const error = await apiErrorOf(requestRollback(tenant, b.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain('no earlier completed deployment');
    expect(deployments.calls.beginRollback).toBe(0);
    expect(deployments.stored(tenant, b.id)).toEqual(b);
    expect(executor.started).toEqual([]);
  });

  it('answers 409 when the previous completed deployment used another provider: a rollback cannot change providers', async () => {
    const { deps, deployments, executor, b } = history({ a: { provider: 'aws-lambda' } });
    const error = await apiErrorOf(requestRollback(tenant, b.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain('cannot change providers');
    expect(deployments.calls.beginRollback).toBe(0);
    expect(executor.started).toEqual([]);
  });

  it('answers 409 for a completed deployment that is not the current one', async () => {
    const { deps, deployments, executor, a, b } = history();
    deployments.put(tenant, completedRecord(10_000_000, { provider: 'deploy-hook' }));
    const error = await apiErrorOf(requestRollback(tenant, a.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain('not the current one');
    expect(deployments.stored(tenant, a.id)).toEqual(a);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.current(tenant, projectId, 'production')).toBe(b.id);
    expect(executor.started).toEqual([]);
  });

  it('answers 409 while another deployment or rollback there is in progress', async () => {
    const { deps, deployments, executor, b } = history();
    deployments.holdLock(tenant, projectId, 'production', 'dep_other');
    const error = await apiErrorOf(requestRollback(tenant, b.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain('in progress');
    expect(deployments.stored(tenant, b.id)).toEqual(b);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBe('dep_other');
    expect(executor.started).toEqual([]);

    // A second request for the same deployment while its rollback runs is busy too.
    deployments.holdLock(tenant, projectId, 'production', b.id);
    expect(statusOf(await apiErrorOf(requestRollback(tenant, b.id, deps)))).toBe(409);
  });

  it('answers 409 when the deployment changed between the read and the rollback', async () => {
    const { deps, deployments, executor, b } = history();
    const racing: DeploymentDeps = {
      ...deps,
      deployments: {
        ...deployments,
        async beginRollback(t, previous, next) {
          deployments.put(t, { ...previous, revision: previous.revision + 1 });
          return deployments.beginRollback(t, previous, next);
        },
      },
    };
    const error = await apiErrorOf(requestRollback(tenant, b.id, racing));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain('changed meanwhile');
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(executor.started).toEqual([]);
  });

  it('answers the rollback failed, the lock released and the deployment still current, when its execution cannot be started', async () => {
    const { deps, deployments, executor, a, b } = history();
    executor.behaviour.failStart = true;
    const answered = await requestRollback(tenant, b.id, deps);
    expect(executor.started).toHaveLength(1);
    expect(answered).toMatchObject({
      status: 'completed',
      rollback: { status: 'failed', to: a.id, trigger: 'requested', error: expect.any(String), completed_at: isoTime(startOfTests) },
      revision: b.revision + 2,
    });
    expect(answered.rollback?.error).not.toContain('StartExecution');
    expect(deployments.stored(tenant, b.id)).toEqual(answered);
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.current(tenant, projectId, 'production')).toBe(b.id);
    // A requested rollback never counted as active on the project.
    expect(deployments.activeCount(tenant, projectId)).toBe(0);
    // Asked for and failed: announced, as a rollback that ends is.
    expect(deployments.events.map((e) => [e.type, (e.data as { rollback?: { status?: string } }).rollback?.status])).toEqual([
      ['deployment.rollback', 'failed'],
    ]);
  });

  it('answers 404 for an unknown, malformed or other-mode id', async () => {
    const { deps, b } = history();
    expect(statusOf(await apiErrorOf(requestRollback(tenant, newId('deployment', startOfTests), deps)))).toBe(404);
    expect(statusOf(await apiErrorOf(requestRollback(tenant, 'nope', deps)))).toBe(404);
    expect(statusOf(await apiErrorOf(requestRollback({ ...tenant, mode: 'live' }, b.id, deps)))).toBe(404);
  });
});

describe('viewOfDeployment and deploymentSnapshot', () => {
  const deployment = completedRecord(1_000, {
    config: { ...defaultHealthSettings, secret: 's3cr3t' },
    artifact: { workflow_id: 'wf_1', bundle },
  });

  it('shows no bookkeeping and no deployed outcome, the common fields and the redacted config, in the documented order', () => {
    const redact = (provider: string, config: Record<string, unknown>) => ({ ...config, provider_seen: provider, secret: '[redacted]' });
    const view = viewOfDeployment(deployment, redact);
    expect(view).not.toHaveProperty('revision');
    expect(view).not.toHaveProperty('deployed');
    expect(view.config).toEqual({
      branch: 'main',
      auto_rollback: true,
      ...defaultHealthSettings,
      secret: '[redacted]',
      provider_seen: 'fake',
    });
    expect(JSON.stringify(view)).not.toContain('s3cr3t');
    expect(Object.keys(view).slice(0, 3)).toEqual(['id', 'project_id', 'environment']);
    expect(Object.keys(view).at(-1)).toBe('duration_ms');
  });

  it('event data: no config, no health checks, the artifact by workflow only', () => {
    const snapshot = deploymentSnapshot(deployment);
    expect(snapshot).not.toHaveProperty('config');
    expect(snapshot).not.toHaveProperty('health_checks');
    expect(snapshot).not.toHaveProperty('deployed');
    expect(snapshot.artifact).toEqual({ workflow_id: 'wf_1' });
    expect(deploymentSnapshot({ ...deployment, artifact: null }).artifact).toBeNull();
    expect(JSON.stringify(snapshot)).not.toContain('s3cr3t');
  });
});
