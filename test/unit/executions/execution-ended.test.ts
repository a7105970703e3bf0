import { recordEndedExecution } from '../../../functions/core/executions/execution-ended';
import { controlledClock } from '../fakes/clock';
import { inMemoryDeploymentRepository } from '../fakes/deployment-repository';
import { deploymentRecord, projectId, refOf, tenant, workflowRecord } from '../fakes/deployment-fixtures';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';

const setup = () => {
  const workflows = inMemoryWorkflowRepository();
  const deployments = inMemoryDeploymentRepository();
  deployments.addProject(tenant, projectId);
  return { workflows, deployments, deps: { workflows, deployments, clock: controlledClock() } };
};

const workflowInput = (id: string) => ({
  workflow: { account_id: tenant.accountId, mode: tenant.mode, id, project_id: projectId },
  max_iterations: 2,
});

describe('an execution that ended without succeeding', () => {
  it('fails a workflow it left running, saying why, with its event', async () => {
    const { workflows, deps } = setup();
    const running = workflowRecord({ status: 'running', started_at: '2026-11-21T09:00:00.000Z' });
    workflows.put(tenant, { ...running, stage_statuses: { ...running.stage_statuses, intake: 'completed', build: 'running' } });
    expect(await recordEndedExecution(deps, { status: 'TIMED_OUT', input: workflowInput(running.id) })).toBe('workflow');
    const stored = workflows.stored(tenant, running.id)!;
    expect(stored.status).toBe('failed');
    expect(stored.error).toEqual({ stage: 'build', message: 'The workflow stopped: its execution timed out.' });
    expect(workflows.events.map((event) => event.type)).toEqual(['workflow.failed']);
  });

  it('leaves a workflow that already finished alone (the ordinary failure path ends FAILED too)', async () => {
    const { workflows, deps } = setup();
    const done = workflowRecord({ status: 'failed' });
    workflows.put(tenant, done);
    await recordEndedExecution(deps, { status: 'FAILED', input: workflowInput(done.id) });
    expect(workflows.stored(tenant, done.id)).toEqual(done);
    expect(workflows.events).toEqual([]);
  });

  it('fails a deployment it left in progress and frees its lock', async () => {
    const { deployments, deps } = setup();
    const inProgress = deploymentRecord({ status: 'in_progress', started_at: '2026-11-21T09:59:00.000Z' });
    deployments.put(tenant, inProgress);
    deployments.holdLock(tenant, projectId, 'production', inProgress.id);
    await recordEndedExecution(deps, { status: 'ABORTED', input: { action: 'deploy', deployment: refOf(inProgress) } });
    const stored = deployments.stored(tenant, inProgress.id)!;
    expect(stored.status).toBe('failed');
    expect(stored.error).toEqual({ step: 'execution', message: 'The deployment stopped: its execution was stopped.' });
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
    expect(deployments.events.map((event) => event.type)).toEqual(['deployment.failed']);
  });

  it('records a requested rollback that never finished as failed and frees the lock', async () => {
    const { deployments, deps } = setup();
    const current = deploymentRecord({
      status: 'completed',
      rollback: {
        status: 'in_progress',
        to: 'dep_01JD2QC3H7J9K1M3N5P7R9S1T3',
        requested_at: '2026-11-21T10:00:00.000Z',
        completed_at: null,
        error: null,
        trigger: 'requested',
      },
    });
    deployments.put(tenant, current);
    deployments.holdLock(tenant, projectId, 'production', current.id);
    await recordEndedExecution(deps, { status: 'FAILED', input: { action: 'rollback', deployment: refOf(current) } });
    const stored = deployments.stored(tenant, current.id)!;
    expect(stored.status).toBe('completed');
    expect(stored.rollback).toMatchObject({ status: 'failed', error: 'The rollback stopped: its execution failed unexpectedly.' });
    expect(deployments.lockHolder(tenant, projectId, 'production')).toBeUndefined();
  });

  it('ignores an input it does not know', async () => {
    const { deps } = setup();
    expect(await recordEndedExecution(deps, { status: 'FAILED', input: { something: 'else' } })).toBe('ignored');
    expect(await recordEndedExecution(deps, { status: 'FAILED', input: null })).toBe('ignored');
  });
});
