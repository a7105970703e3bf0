import { isId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import { applyTransition, WorkflowMissing } from '../../../functions/core/workflows/apply-transition';
import { completeStage, startRun, startStage } from '../../../functions/core/workflows/transitions';
import { cancelWorkflow, createWorkflow, type NewWorkflow, type WorkflowDeps } from '../../../functions/core/workflows/workflow-use-cases';
import { defaultName, type Workflow } from '../../../functions/core/workflows/workflow';
import { apiErrorOf } from '../fakes/api-error';
import { controlledClock, startOfTests } from '../fakes/clock';
import { fakeWorkflowExecutor } from '../fakes/workflow-executor';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';
import { statusOf } from '../../../functions/http/error-status';

const tenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

const setup = (providers: string[] = ['anthropic', 'openai']) => {
  const workflows = inMemoryWorkflowRepository();
  workflows.addProject(tenant, projectId);
  const executor = fakeWorkflowExecutor();
  const clock = controlledClock();
  const deps: WorkflowDeps = { workflows, executor, clock, configuredProviders: () => providers };
  return { workflows, executor, clock, deps };
};

const input = (overrides: Partial<NewWorkflow> = {}): NewWorkflow => ({
  project_id: projectId,
  prompt: 'Add rate limiting to the API\n\nUse a token bucket per key.',
  config: { ai_provider: 'anthropic' },
  ...overrides,
});

describe('createWorkflow', () => {
  it('stores a queued workflow with the defaults and its workflow.created event, then starts its execution', async () => {
    const { deps, workflows, executor } = setup();
    const workflow = await createWorkflow(tenant, input(), deps);

    expect(isId('workflow', workflow.id)).toBe(true);
    expect(workflow).toMatchObject({
      project_id: projectId,
      status: 'queued',
      name: 'Add rate limiting to the API',
      config: { ai_provider: 'anthropic', auto_deploy: false, branch: null, max_iterations: 2, review: true },
      created_at: new Date(startOfTests).toISOString(),
      version: 1,
    });
    expect(workflows.stored(tenant, workflow.id)).toEqual(workflow);
    expect(workflows.events).toEqual([expect.objectContaining({ type: 'workflow.created', workflowId: workflow.id })]);
    expect(workflows.events[0]?.data).toMatchObject({ id: workflow.id, status: 'queued' });

    expect(executor.started).toEqual([
      { workflow: { account_id: tenant.accountId, mode: 'test', id: workflow.id, project_id: projectId }, max_iterations: 2 },
    ]);
  });

  it('keeps the given name and config, and hands max_iterations to the execution', async () => {
    const { deps, executor } = setup();
    const workflow = await createWorkflow(
      tenant,
      input({ name: 'Mine', config: { ai_provider: 'openai', auto_deploy: true, branch: 'develop', max_iterations: 5, review: false } }),
      deps,
    );
    expect(workflow.name).toBe('Mine');
    expect(workflow.config).toEqual({ ai_provider: 'openai', auto_deploy: true, branch: 'develop', max_iterations: 5, review: false });
    expect(executor.started[0]?.max_iterations).toBe(5);
  });

  it("names a workflow after the prompt's first non-blank line, cut to 100 characters", async () => {
    const { deps } = setup();
    const long = 'x'.repeat(150);
    const named = await createWorkflow(tenant, input({ prompt: `\n   \n  ${long}\nsecond line` }), deps);
    expect(named.name).toHaveLength(100);
    expect(named.name.startsWith('x'.repeat(99))).toBe(true);

    const exact = await createWorkflow(tenant, input({ prompt: `${'y'.repeat(100)}\nmore` }), deps);
    expect(exact.name).toBe('y'.repeat(100));

    const trimmed = await createWorkflow(tenant, input({ prompt: '  Fix the login bug  \nDetails' }), deps);
    expect(trimmed.name).toBe('Fix the login bug');
  });

  it('uses the first configured provider when config or config.ai_provider is left out, as generated tests do', async () => {
    const { deps } = setup(['openai', 'anthropic']);
    const { config: _none, ...withoutConfig } = input();
    expect((await createWorkflow(tenant, withoutConfig, deps)).config).toEqual({
      ai_provider: 'openai',
      auto_deploy: false,
      branch: null,
      max_iterations: 2,
      review: true,
    });
    expect((await createWorkflow(tenant, input({ config: { auto_deploy: true } }), deps)).config.ai_provider).toBe('openai');
  });

  it('answers 422 for a provider this deployment has not configured, naming the configured ones; nothing stored or started', async () => {
    const { deps, workflows, executor } = setup(['anthropic', 'bedrock']);
    const error = await apiErrorOf(createWorkflow(tenant, input({ config: { ai_provider: 'openai' } }), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.errors).toEqual([{ field: 'config.ai_provider', issue: expect.stringContaining('anthropic, bedrock') }]);
    expect(error.message).toContain('anthropic, bedrock');
    expect(workflows.calls.create).toBe(0);
    expect(executor.started).toEqual([]);
  });

  it('says none is configured when no provider is', async () => {
    const { deps } = setup([]);
    const error = await apiErrorOf(createWorkflow(tenant, input(), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.message).toContain('none');
  });

  it.each(['not-a-project', 'proj_short', 'wf_01JD2Q8X4B6V3C1N0M9K8J7H6G', ''])(
    'answers 422 on project_id for the malformed project id %p, without asking the repository',
    async (malformed) => {
      const { deps, workflows, executor } = setup();
      const error = await apiErrorOf(createWorkflow(tenant, input({ project_id: malformed }), deps));
      expect(statusOf(error)).toBe(422);
      expect(error.errors).toEqual([{ field: 'project_id', issue: expect.any(String) }]);
      expect(workflows.calls.create).toBe(0);
      expect(executor.started).toEqual([]);
    },
  );

  it('answers 422 on project_id for a well-formed id the repository does not know; nothing started', async () => {
    const { deps, workflows, executor } = setup();
    const error = await apiErrorOf(createWorkflow(tenant, input({ project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6Z' }), deps));
    expect(statusOf(error)).toBe(422);
    expect(error.errors).toEqual([{ field: 'project_id', issue: expect.any(String) }]);
    expect(workflows.calls.create).toBe(1);
    expect(workflows.events).toEqual([]);
    expect(executor.started).toEqual([]);
  });

  it('does not see a project of another mode of the same account', async () => {
    const { deps } = setup();
    const error = await apiErrorOf(createWorkflow({ ...tenant, mode: 'live' }, input(), deps));
    expect(statusOf(error)).toBe(422);
  });

  it('returns the workflow failed, with a message and a workflow.failed event, when its execution cannot be started', async () => {
    const { deps, workflows, executor } = setup();
    executor.behaviour.failStart = true;
    const workflow = await createWorkflow(tenant, input(), deps);

    expect(executor.started).toHaveLength(1);
    expect(workflow.status).toBe('failed');
    expect(workflow.error?.message).toEqual(expect.any(String));
    expect(workflow.error?.message.length).toBeGreaterThan(0);
    // The SDK's message is not what the caller sees.
    expect(workflow.error?.message).not.toContain('StartExecution');
    expect(workflow.completed_at).not.toBeNull();
    // No stage ever ran: none is blamed, all are skipped.
    expect(workflow.error?.stage).toBeNull();
    expect(Object.values(workflow.stage_statuses)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    expect(workflows.stored(tenant, workflow.id)).toEqual(workflow);
    expect(workflows.events.map((event) => event.type)).toEqual(['workflow.created', 'workflow.failed']);
    expect(workflows.events[1]?.data).toMatchObject({ id: workflow.id, status: 'failed' });
  });
});

describe('cancelWorkflow', () => {
  const created = async () => {
    const context = setup();
    const workflow = await createWorkflow(tenant, input(), context.deps);
    return { ...context, workflow };
  };

  it('cancels a queued workflow, stores the workflow.cancelled event and stops the execution', async () => {
    const { deps, workflows, executor, workflow, clock } = await created();
    clock.advance(1_500);
    const cancelled = await cancelWorkflow(tenant, workflow.id, deps);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.duration_ms).toBe(1_500);
    expect(workflows.stored(tenant, workflow.id)).toEqual(cancelled);
    expect(workflows.events.map((event) => event.type)).toEqual(['workflow.created', 'workflow.cancelled']);
    expect(executor.stopped).toEqual([{ workflowId: workflow.id, cause: expect.any(String) }]);
  });

  it('still answers the cancelled workflow when stopping the execution fails', async () => {
    const { deps, workflows, executor, workflow } = await created();
    executor.behaviour.failStop = true;
    const cancelled = await cancelWorkflow(tenant, workflow.id, deps);
    expect(cancelled.status).toBe('cancelled');
    expect(executor.stopped).toHaveLength(1);
    expect(workflows.stored(tenant, workflow.id)?.status).toBe('cancelled');
  });

  it('answers 409 for a finished workflow and leaves the execution alone', async () => {
    const { deps, workflows, executor, workflow } = await created();
    await cancelWorkflow(tenant, workflow.id, deps);
    executor.stopped.length = 0;
    const eventsBefore = workflows.events.length;

    const error = await apiErrorOf(cancelWorkflow(tenant, workflow.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.code).toBe('conflict');
    expect(executor.stopped).toEqual([]);
    expect(workflows.events).toHaveLength(eventsBefore);
  });

  it.each(['completed', 'failed'] as const)('answers 409 for a %s workflow, which stays as it was', async (status) => {
    const { deps, workflows, executor, workflow } = await created();
    const finished = { ...workflow, status, completed_at: workflow.created_at, version: 7 };
    workflows.put(tenant, finished);
    const error = await apiErrorOf(cancelWorkflow(tenant, workflow.id, deps));
    expect(statusOf(error)).toBe(409);
    expect(error.message).toContain(status);
    expect(executor.stopped).toEqual([]);
    expect(workflows.stored(tenant, workflow.id)).toEqual(finished);
  });

  it('answers 404 for an unknown or malformed id, and stops nothing', async () => {
    const { deps, executor } = await created();
    expect(statusOf(await apiErrorOf(cancelWorkflow(tenant, 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1Z', deps)))).toBe(404);
    expect(statusOf(await apiErrorOf(cancelWorkflow(tenant, 'nope', deps)))).toBe(404);
    expect(executor.stopped).toEqual([]);
  });

  it('cancels on top of a stage that finished concurrently (the conflicting save is retried on the fresh record)', async () => {
    const { deps, workflows, workflow, clock } = await created();
    // The execution started and intake runs.
    await applyTransition(deps, tenant, workflow.id, startRun);
    await applyTransition(deps, tenant, workflow.id, (w, now) => startStage(w, 'intake', now));
    clock.advance(1_000);
    // Intake completes just before cancel's save.
    let raced = false;
    workflows.interfere((current) => {
      if (raced) return current;
      raced = true;
      return completeStage(current, 'intake', {}, new Date(clock.now()).toISOString()).workflow;
    });
    const cancelled = await cancelWorkflow(tenant, workflow.id, deps);
    expect(workflows.calls.savesRejected).toBe(1);
    expect(cancelled.status).toBe('cancelled');
    // The completed stage is kept; the rest cancelled.
    expect(cancelled.stage_statuses).toMatchObject({ intake: 'completed', build: 'cancelled', package: 'cancelled' });
  });
});

describe('applyTransition', () => {
  const stored = async () => {
    const context = setup();
    const workflow = await createWorkflow(tenant, input(), context.deps);
    return { ...context, workflow };
  };

  /** Another writer's change: one more AI call recorded, the version moved on. */
  const concurrentChange = (current: Workflow): Workflow => ({
    ...current,
    ai_usage: { ...current.ai_usage, calls: current.ai_usage.calls + 1 },
    version: current.version + 1,
  });

  it('reads again and reapplies the transition when someone changed the workflow first; both changes survive', async () => {
    const { deps, workflows, workflow } = await stored();
    let conflicts = 0;
    workflows.interfere((current) => {
      if (conflicts >= 2) return current;
      conflicts += 1;
      return concurrentChange(current);
    });
    const seen: number[] = [];
    const result = await applyTransition(deps, tenant, workflow.id, (current, nowIso) => {
      seen.push(current.version);
      return startRun(current, nowIso);
    });
    // Applied to versions 1, 2 and 3: the first two saves lost the race.
    expect(seen).toEqual([1, 2, 3]);
    expect(workflows.calls.savesRejected).toBe(2);
    expect(result.status).toBe('running');
    expect(result.version).toBe(4);
    expect(workflows.stored(tenant, workflow.id)).toEqual(result);
    expect(result.ai_usage.calls).toBe(2);
    // The event of the transition is stored once, with the saved change.
    expect(workflows.events.filter((event) => event.type === 'workflow.started')).toHaveLength(1);
  });

  it('gives up after 10 attempts when the workflow keeps changing, storing nothing of its own', async () => {
    const { deps, workflows, workflow } = await stored();
    workflows.interfere(concurrentChange);
    let attempts = 0;
    await expect(
      applyTransition(deps, tenant, workflow.id, (current, nowIso) => {
        attempts += 1;
        return startRun(current, nowIso);
      }),
    ).rejects.toThrow(/10 attempts/);
    expect(attempts).toBe(10);
    expect(workflows.calls.save).toBe(10);
    expect(workflows.stored(tenant, workflow.id)?.status).toBe('queued');
    expect(workflows.events.map((event) => event.type)).toEqual(['workflow.created']);
  });

  it('does not save when the transition changes nothing', async () => {
    const { deps, workflows, workflow } = await stored();
    await applyTransition(deps, tenant, workflow.id, startRun);
    const saves = workflows.calls.save;
    const again = await applyTransition(deps, tenant, workflow.id, startRun);
    expect(workflows.calls.save).toBe(saves);
    expect(again.version).toBe(2);
  });

  it('throws WorkflowMissing for a workflow that does not exist', async () => {
    const { deps } = setup();
    await expect(applyTransition(deps, tenant, 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1Z', startRun)).rejects.toBeInstanceOf(WorkflowMissing);
  });
});

describe('the name a workflow gets from its prompt', () => {
  it('is the first line that is not blank, whole when it fits 100 characters', () => {
    expect(defaultName('\n  \nAdd rate limiting\nmore')).toBe('Add rate limiting');
    expect(defaultName('')).toBe('Workflow');
  });

  it('is cut at 99 code points and an ellipsis, never inside a surrogate pair', () => {
    const name = defaultName('😀'.repeat(121));
    expect([...name]).toHaveLength(100);
    expect(name).toBe(`${'😀'.repeat(99)}…`);
    expect(name).not.toMatch(/[\ud800-\udfff]/u);
  });

  it('holds no control or bidirectional control character, as a given name may not', () => {
    expect(defaultName('\u202eevil gnp.exe')).toBe('evil gnp.exe');
    expect(defaultName('\u202e\u200f\nFix \u0007the build')).toBe('Fix the build');
    expect(defaultName('lone \ud800 surrogate')).toBe('lone  surrogate');
    expect(defaultName('Fix\tthe build\r\nmore')).toBe('Fix the build');
  });
});
