import { isoTime } from '../../clock';
import { applyTransition } from '../apply-transition';
import type { StageName } from '../stage-data';
import { completeStage, type StageResult, startStage, WorkflowNotRunning } from '../transitions';
import { type LogLevel, tenantOf, type Workflow, type WorkflowRef } from '../workflow';
import type { StageDeps } from './stage-deps';

export type StageLog = Record<LogLevel, (message: string) => Promise<void>>;

export interface StageWork {
  workflow: Workflow;
  log: StageLog;
}

export interface StageOutcome<A> extends StageResult {
  /** What the state machine receives (kept small: it travels in the execution's state). */
  answer: A;
}

/**
 * Writes the workflow's log. Once the workflow is cancelled nothing more is written (the cancel
 * stored the stage's last line) and the write throws `WorkflowNotRunning`, which stops the stage.
 */
export const stageLog = (deps: Pick<StageDeps, 'workflows' | 'clock'>, ref: WorkflowRef, stage: StageName | null): StageLog => {
  const write = (level: LogLevel) => async (message: string) => {
    const written = await deps.workflows.appendLog(tenantOf(ref), ref.id, { timestamp: isoTime(deps.clock.now()), stage, level, message });
    if (!written) throw new WorkflowNotRunning(`workflow ${ref.id} is cancelled`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
};

/**
 * One stage: mark it running, do the work, record its outputs and usage with the
 * `workflow.stage.completed` event. A failure is logged and thrown on to the state machine,
 * whose Retry or Catch decides what follows.
 */
export const runStage = async <A>(
  deps: Pick<StageDeps, 'workflows' | 'clock'>,
  ref: WorkflowRef,
  stage: StageName,
  work: (context: StageWork) => Promise<StageOutcome<A>>,
): Promise<A> => {
  const tenant = tenantOf(ref);
  const log = stageLog(deps, ref, stage);
  const started = deps.clock.now();
  const workflow = await applyTransition(deps, tenant, ref.id, (current, nowIso) => startStage(current, stage, nowIso));
  await log.info(`${stage} started`);
  let outcome: StageOutcome<A>;
  try {
    outcome = await work({ workflow, log });
  } catch (error) {
    // Cancelled meanwhile: the cancel wrote the stage's last line.
    if (error instanceof WorkflowNotRunning) throw error;
    await log.error(`${stage} failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  await applyTransition(deps, tenant, ref.id, (current, nowIso) => completeStage(current, stage, outcome, nowIso));
  await log.info(`${stage} completed in ${deps.clock.now() - started} ms`);
  return outcome.answer;
};
