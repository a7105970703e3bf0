import { type StageName, stageNames } from '../stage-data';
import { applyTransition } from '../apply-transition';
import { completeRun, failRun, skipStage, startRun } from '../transitions';
import { tenantOf, type WorkflowRef } from '../workflow';
import type { IterationBudget } from './iterate';
import { stageLog } from './run-stage';
import type { StageDeps } from './stage-deps';

/** What a Catch hands over: Step Functions' error name and cause, and our stage when we know it. */
export interface CaughtError {
  Error?: string;
  Cause?: string;
  stage?: string;
}

type ControlDeps = Pick<StageDeps, 'workflows' | 'clock'>;

export const startWorkflow = async (deps: ControlDeps, ref: WorkflowRef, maxIterations: number): Promise<IterationBudget> => {
  await applyTransition(deps, tenantOf(ref), ref.id, startRun);
  await stageLog(deps, ref, null).info('Workflow started');
  return { remaining: maxIterations, used: 0 };
};

export const skipWorkflowStage = async (deps: ControlDeps, ref: WorkflowRef, stage: StageName): Promise<void> => {
  await applyTransition(deps, tenantOf(ref), ref.id, (workflow, nowIso) => skipStage(workflow, stage, nowIso));
  await stageLog(deps, ref, stage).info(`${stage} skipped: verification passed`);
};

export const completeWorkflow = async (deps: ControlDeps, ref: WorkflowRef): Promise<void> => {
  const workflow = await applyTransition(deps, tenantOf(ref), ref.id, completeRun);
  await stageLog(deps, ref, null).info(`Workflow completed in ${workflow.duration_ms ?? 0} ms`);
};

const friendlyErrors: Record<string, string> = {
  'States.Timeout': 'the stage took longer than its time limit',
  'States.TaskFailed': 'the stage failed',
  'Lambda.TooManyRequestsException': 'the stage could not run: too many concurrent executions',
  AiProviderTransientError: 'the AI provider kept failing or throttling after retries',
};

/**
 * The reason shown on the workflow: the thrown error's message (Lambda sends it inside a JSON
 * cause with the stack, which is never shown), else a sentence for Step Functions' own errors.
 */
export const failureMessage = (caught: CaughtError): string => {
  let message: string | undefined;
  if (caught.Cause) {
    message = caught.Cause;
    try {
      const parsed = JSON.parse(caught.Cause) as unknown;
      const errorMessage = typeof parsed === 'object' && parsed !== null ? (parsed as { errorMessage?: unknown }).errorMessage : undefined;
      if (typeof errorMessage === 'string') message = errorMessage;
    } catch {
      // Not JSON: the cause is the message itself.
    }
  }
  const base = message?.trim() || friendlyErrors[caught.Error ?? ''] || caught.Error || 'the stage failed';
  return base.length <= 1000 ? base : `${base.slice(0, 999)}…`;
};

export const failWorkflow = async (deps: ControlDeps, ref: WorkflowRef, caught: CaughtError): Promise<void> => {
  const stage = stageNames.find((name) => name === caught.stage);
  const message = failureMessage(caught);
  const workflow = await applyTransition(deps, tenantOf(ref), ref.id, (current, nowIso) => failRun(current, { stage, message }, nowIso));
  if (workflow.status === 'failed') await stageLog(deps, ref, workflow.error?.stage ?? null).error(`Workflow failed: ${message}`);
};
