import type { Clock } from '../clock';
import type { DeploymentRepository } from '../deployments/deployment';
import { recordFailure, recordRollbackFailure } from '../deployments/deployment-steps';
import { applyTransition } from '../workflows/apply-transition';
import { failRun } from '../workflows/transitions';
import { tenantOf, type WorkflowRef, type WorkflowRepository } from '../workflows/workflow';

/** A Step Functions execution that ended without succeeding, as EventBridge reports it. */
export interface EndedExecution {
  status: string;
  /** The execution's input, as started: a workflow's or a deployment's. */
  input: unknown;
}

export interface ExecutionEndedDeps {
  workflows: WorkflowRepository;
  deployments: DeploymentRepository;
  clock: Clock;
}

const reason = (status: string): string =>
  status === 'TIMED_OUT'
    ? 'its execution timed out'
    : status === 'ABORTED'
      ? 'its execution was stopped'
      : 'its execution failed unexpectedly';

/**
 * The safety net behind the state machines' own failure paths: when an execution ends FAILED,
 * TIMED_OUT or ABORTED while its workflow or deployment still looks under way (a timeout of the
 * whole machine, a failure-recording step that ran out of retries), the record is failed and a
 * deployment's lock released. Records that already finished are left alone, so the ordinary
 * failures, which end FAILED after recording themselves, change nothing here.
 */
export const recordEndedExecution = async (
  deps: ExecutionEndedDeps,
  execution: EndedExecution,
): Promise<'workflow' | 'deployment' | 'ignored'> => {
  const input = execution.input as {
    workflow?: WorkflowRef;
    deployment?: { account_id: string; mode: 'live' | 'test'; id: string };
    action?: string;
  } | null;
  if (input?.workflow) {
    await applyTransition(deps, tenantOf(input.workflow), input.workflow.id, (workflow, nowIso) =>
      failRun(workflow, { message: `The workflow stopped: ${reason(execution.status)}.` }, nowIso),
    );
    return 'workflow';
  }
  if (input?.deployment) {
    if (input.action === 'rollback') {
      await recordRollbackFailure(deps, input.deployment, `The rollback stopped: ${reason(execution.status)}.`);
    } else {
      await recordFailure(deps, input.deployment, { step: 'execution', message: `The deployment stopped: ${reason(execution.status)}.` });
      // An automatic rollback chosen just now has no execution left to run it: release it too.
      await recordRollbackFailure(deps, input.deployment, `The automatic rollback did not run: ${reason(execution.status)}.`);
    }
    return 'deployment';
  }
  return 'ignored';
};
