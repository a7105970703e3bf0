import { conflict } from '../errors';
import { type StageName, stageNames, type TokenUsage } from './stage-data';
import {
  inStageOrder,
  isFinished,
  type LogEntry,
  type PendingEvent,
  type StageStatus,
  type Workflow,
  type WorkflowOutputs,
  viewOfWorkflow,
} from './workflow';

/**
 * Every change of a workflow, as pure functions from the record before to the record after and
 * the events the change causes. The repository stores both in one transaction.
 */
export interface Transition {
  workflow: Workflow;
  events: PendingEvent[];
  /** Log lines stored with the change, in the same transaction. */
  logs?: LogEntry[];
}

/** The workflow stopped being runnable (cancelled, failed, finished) while a stage worked. */
export class WorkflowNotRunning extends Error {
  override readonly name = 'WorkflowNotRunning';
}

const changed = (workflow: Workflow, changes: Partial<Workflow>, nowIso: string): Workflow => ({
  ...workflow,
  ...changes,
  updated_at: nowIso,
  version: workflow.version + 1,
});

const elapsed = (fromIso: string | null, toIso: string): number | null =>
  fromIso ? Math.max(0, Date.parse(toIso) - Date.parse(fromIso)) : null;

/**
 * The snapshot events carry: the workflow as the API shows it (a workflow stored before a field
 * existed shows it as GET does), minus the heavy prompt, the timings and usage, and bookkeeping.
 */
export const workflowSnapshot = (workflow: Workflow): Record<string, unknown> => {
  const view = viewOfWorkflow(workflow);
  return {
    id: view.id,
    project_id: view.project_id,
    name: view.name,
    status: view.status,
    stages: view.stages,
    stage_statuses: view.stage_statuses,
    config: view.config,
    outputs: view.outputs,
    error: view.error,
    created_at: view.created_at,
    started_at: view.started_at,
    completed_at: view.completed_at,
    duration_ms: view.duration_ms,
  };
};

const requireRunning = (workflow: Workflow): void => {
  if (workflow.status !== 'running') throw new WorkflowNotRunning(`workflow ${workflow.id} is ${workflow.status}`);
};

export const startRun = (workflow: Workflow, nowIso: string): Transition => {
  if (workflow.status === 'running') return { workflow, events: [] };
  if (workflow.status !== 'queued') throw new WorkflowNotRunning(`workflow ${workflow.id} is ${workflow.status}`);
  const next = changed(workflow, { status: 'running', started_at: nowIso }, nowIso);
  return { workflow: next, events: [{ type: 'workflow.started', data: workflowSnapshot(next) }] };
};

export const startStage = (workflow: Workflow, stage: StageName, nowIso: string): Transition => {
  requireRunning(workflow);
  const timing = workflow.stage_timings[stage];
  // A retried attempt of the same run keeps its start.
  if (workflow.stage_statuses[stage] === 'running') return { workflow, events: [] };
  const next = changed(
    workflow,
    {
      stage_statuses: { ...workflow.stage_statuses, [stage]: 'running' },
      stage_timings: {
        ...workflow.stage_timings,
        [stage]: { ...timing, started_at: nowIso, completed_at: null, duration_ms: null, runs: timing.runs + 1 },
      },
    },
    nowIso,
  );
  return { workflow: next, events: [] };
};

export interface StageResult {
  outputs?: Partial<WorkflowOutputs>;
  usage?: TokenUsage & { provider: string; model: string };
}

export const addUsage = (workflow: Workflow, usage: StageResult['usage']): Workflow['ai_usage'] =>
  usage
    ? {
        input_tokens: workflow.ai_usage.input_tokens + usage.input_tokens,
        output_tokens: workflow.ai_usage.output_tokens + usage.output_tokens,
        total_tokens: workflow.ai_usage.total_tokens + usage.input_tokens + usage.output_tokens,
        provider: usage.provider,
        model: usage.model,
        calls: workflow.ai_usage.calls + 1,
      }
    : workflow.ai_usage;

const finishedStage = (workflow: Workflow, stage: StageName, status: StageStatus, nowIso: string) => {
  const timing = workflow.stage_timings[stage];
  const duration = elapsed(timing.started_at, nowIso);
  return {
    stage_statuses: { ...workflow.stage_statuses, [stage]: status },
    stage_timings: { ...workflow.stage_timings, [stage]: { ...timing, completed_at: nowIso, duration_ms: duration } },
    duration,
  };
};

export const completeStage = (workflow: Workflow, stage: StageName, result: StageResult, nowIso: string): Transition => {
  requireRunning(workflow);
  if (workflow.stage_statuses[stage] !== 'running')
    throw new WorkflowNotRunning(`stage ${stage} of ${workflow.id} is ${workflow.stage_statuses[stage]}`);
  const { duration, ...stageChanges } = finishedStage(workflow, stage, 'completed', nowIso);
  const next = changed(
    workflow,
    { ...stageChanges, outputs: { ...workflow.outputs, ...result.outputs }, ai_usage: addUsage(workflow, result.usage) },
    nowIso,
  );
  return {
    workflow: next,
    events: [
      { type: 'workflow.stage.completed', data: { workflow_id: workflow.id, stage, status: 'completed', duration_ms: duration ?? 0 } },
    ],
  };
};

/** Outputs learned after their stage completed (auto_deploy's URL), on a workflow still running. */
export const recordOutputs = (workflow: Workflow, outputs: Partial<WorkflowOutputs>, nowIso: string): Transition => {
  requireRunning(workflow);
  return { workflow: changed(workflow, { outputs: { ...workflow.outputs, ...outputs } }, nowIso), events: [] };
};

/** A stage the run did not need (iterate when verification passed): recorded as such, with its event. */
export const skipStage = (workflow: Workflow, stage: StageName, nowIso: string): Transition => {
  requireRunning(workflow);
  if (workflow.stage_statuses[stage] !== 'pending') return { workflow, events: [] };
  const next = changed(workflow, { stage_statuses: { ...workflow.stage_statuses, [stage]: 'skipped' } }, nowIso);
  return {
    workflow: next,
    events: [{ type: 'workflow.stage.completed', data: { workflow_id: workflow.id, stage, status: 'skipped', duration_ms: 0 } }],
  };
};

const finished = (workflow: Workflow, nowIso: string) => ({
  completed_at: nowIso,
  duration_ms: elapsed(workflow.started_at ?? workflow.created_at, nowIso),
});

export const completeRun = (workflow: Workflow, nowIso: string): Transition => {
  requireRunning(workflow);
  const unfinished = stageNames.filter((stage) => !['completed', 'skipped'].includes(workflow.stage_statuses[stage]));
  if (unfinished.length > 0) throw new Error(`workflow ${workflow.id} cannot complete: ${unfinished.join(', ')} not finished`);
  const next = changed(workflow, { status: 'completed', ...finished(workflow, nowIso) }, nowIso);
  return {
    workflow: next,
    events: [
      {
        type: 'workflow.completed',
        // Exactly the spec's shape.
        data: {
          workflow_id: next.id,
          project_id: next.project_id,
          status: next.status,
          duration_ms: next.duration_ms ?? 0,
          stages: inStageOrder(next.stage_statuses),
          outputs: { docker_image: next.outputs.docker_image, deployment_url: next.outputs.deployment_url },
        },
      },
    ],
  };
};

/**
 * The stage a failure belongs to: the one named, else the one running, else the first not yet
 * finished (a failure before the stage could mark itself running).
 */
const failedStageOf = (workflow: Workflow, named: StageName | null | undefined): StageName | null =>
  named === null
    ? null
    : (named ??
      stageNames.find((stage) => workflow.stage_statuses[stage] === 'running') ??
      stageNames.find((stage) => workflow.stage_statuses[stage] === 'pending') ??
      null);

/** `stage: null` is a failure before any stage could run (the execution never started). */
export const failRun = (workflow: Workflow, failure: { stage?: StageName | null; message: string }, nowIso: string): Transition => {
  if (isFinished(workflow.status)) return { workflow, events: [] };
  const stage = failedStageOf(workflow, failure.stage);
  const stage_statuses = { ...workflow.stage_statuses };
  const stage_timings = { ...workflow.stage_timings };
  if (stage) {
    const ended = finishedStage(workflow, stage, 'failed', nowIso);
    stage_statuses[stage] = 'failed';
    if (workflow.stage_statuses[stage] === 'running') stage_timings[stage] = ended.stage_timings[stage];
    for (const later of stageNames.slice(stageNames.indexOf(stage) + 1)) {
      if (stage_statuses[later] === 'pending' || stage_statuses[later] === 'running') stage_statuses[later] = 'skipped';
    }
  } else {
    for (const name of stageNames)
      if (stage_statuses[name] === 'pending' || stage_statuses[name] === 'running') stage_statuses[name] = 'skipped';
  }
  const next = changed(
    workflow,
    { status: 'failed', stage_statuses, stage_timings, error: { stage, message: failure.message }, ...finished(workflow, nowIso) },
    nowIso,
  );
  return { workflow: next, events: [{ type: 'workflow.failed', data: workflowSnapshot(next) }] };
};

export const cancelRun = (workflow: Workflow, nowIso: string): Transition => {
  if (isFinished(workflow.status))
    throw conflict(`The workflow is ${workflow.status}; only a queued or running workflow can be cancelled.`);
  // Every stage done and no deployment waited for: the run is only being recorded as completed.
  const stagesDone = stageNames.every((stage) => ['completed', 'skipped'].includes(workflow.stage_statuses[stage]));
  if (stagesDone && !workflow.outputs.deployment_id)
    throw conflict('Every stage of the workflow has finished; it is completing and can no longer be cancelled.');
  const stage_statuses = Object.fromEntries(
    stageNames.map((stage) => {
      const status = workflow.stage_statuses[stage];
      return [stage, status === 'running' || status === 'pending' ? 'cancelled' : status];
    }),
  ) as Workflow['stage_statuses'];
  const next = changed(workflow, { status: 'cancelled', stage_statuses, ...finished(workflow, nowIso) }, nowIso);
  // The running stage's last line, stored with the cancel: after it the stage can write nothing (appendLog refuses).
  const running = stageNames.filter((stage) => workflow.stage_statuses[stage] === 'running');
  const logs: LogEntry[] = running.length
    ? running.map((stage) => ({ timestamp: nowIso, stage, level: 'warn', message: `${stage} cancelled: the workflow was cancelled` }))
    : [{ timestamp: nowIso, stage: null, level: 'warn', message: 'Workflow cancelled' }];
  return { workflow: next, events: [{ type: 'workflow.cancelled', data: workflowSnapshot(next) }], logs };
};
