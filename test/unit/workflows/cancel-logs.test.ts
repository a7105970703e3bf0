import { newId } from '../../../functions/core/ids';
import type { Tenant } from '../../../functions/core/tenancy';
import { applyTransition } from '../../../functions/core/workflows/apply-transition';
import { runStage, stageLog } from '../../../functions/core/workflows/stages/run-stage';
import { cancelRun, startRun, WorkflowNotRunning } from '../../../functions/core/workflows/transitions';
import { newWorkflow, type WorkflowRef } from '../../../functions/core/workflows/workflow';
import { controlledClock } from '../fakes/clock';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';

const tenant: Tenant = { accountId: 'acct_1', mode: 'test' };

const setUp = async () => {
  const clock = controlledClock();
  const workflows = inMemoryWorkflowRepository();
  const projectId = newId('project', clock.now());
  workflows.addProject(tenant, projectId);
  const workflow = newWorkflow({
    id: newId('workflow', clock.now()),
    project_id: projectId,
    name: 'Change',
    prompt: 'Make it better',
    config: { branch: null, ai_provider: 'local', max_iterations: 2, auto_deploy: false, review: true },
    now: new Date(clock.now()).toISOString(),
  });
  await workflows.create(tenant, workflow, { type: 'workflow.created', data: {} });
  const deps = { workflows, clock };
  await applyTransition(deps, tenant, workflow.id, startRun);
  const ref: WorkflowRef = { account_id: tenant.accountId, mode: tenant.mode, id: workflow.id };
  const messages = async () =>
    (await workflows.listLogs(tenant, workflow.id, { page: 1, perPage: 100, sort: 'timestamp', order: 'asc' }, {})).items.map(
      (entry) => `${entry.stage ?? '-'} ${entry.level} ${entry.message}`,
    );
  return { deps, ref, workflow, messages };
};

describe('a stage cancelled while it works', () => {
  it('gets one line saying it was cancelled, written with the cancel, and writes nothing after it', async () => {
    const { deps, ref, workflow, messages } = await setUp();
    let cancelNow: () => void = () => undefined;
    const cancelled = new Promise<void>((resolve) => {
      cancelNow = resolve;
    });
    const stage = runStage(deps, ref, 'build', async ({ log }) => {
      await log.info('Asking the AI for the change set');
      await cancelled;
      await log.info('Applying 3 files');
      throw new Error('never reached: the log write above stops the stage');
    });
    // The stage is at work (its first line is written) when the caller cancels.
    while (!(await messages()).includes('build info Asking the AI for the change set')) await new Promise((r) => setImmediate(r));
    await applyTransition(deps, tenant, workflow.id, cancelRun);
    cancelNow();

    await expect(stage).rejects.toBeInstanceOf(WorkflowNotRunning);
    expect(await messages()).toEqual([
      'build info build started',
      'build info Asking the AI for the change set',
      'build warn build cancelled: the workflow was cancelled',
    ]);
    // Any later write of the stage, or of the workflow, is refused too.
    await expect(stageLog(deps, ref, 'build').error('late')).rejects.toBeInstanceOf(WorkflowNotRunning);
    expect(await messages()).toHaveLength(3);
  });

  it('a workflow cancelled between stages gets one workflow-level line', async () => {
    const { deps, workflow, messages } = await setUp();
    await applyTransition(deps, tenant, workflow.id, cancelRun);
    expect(await messages()).toEqual(['- warn Workflow cancelled']);
  });
});
