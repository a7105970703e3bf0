import type { EventType } from '../events/event-types';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import { type StageName, stageNames, type TokenUsage } from './stage-data';

export const workflowStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type WorkflowStatus = (typeof workflowStatuses)[number];

export const stageStatuses = ['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled'] as const;
export type StageStatus = (typeof stageStatuses)[number];

export const terminalStatuses: readonly WorkflowStatus[] = ['completed', 'failed', 'cancelled'];
export const isFinished = (status: WorkflowStatus): boolean => terminalStatuses.includes(status);

export interface WorkflowConfig {
  ai_provider: string;
  auto_deploy: boolean;
  branch: string | null;
  max_iterations: number;
  /** Verify reviews the build's change beside its checks (a code review, `rev_…`). */
  review: boolean;
}

export interface StageTiming {
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  /** How many times the stage ran (verify and prove run again after each iteration). */
  runs: number;
}

export interface ArtifactRef {
  location: string;
  sha256: string;
  size: number;
}

export interface WorkflowOutputs {
  /** Only what really exists: null until an image was built / a deployment answered. */
  docker_image: string | null;
  deployment_url: string | null;
  /**
   * The repository intake checked out (the project's when the workflow started): every later stage
   * works on it, whatever the project names meanwhile. Null until intake ran; absent on workflows
   * stored before it was kept, whose stages read the project's.
   */
  repository: string | null;
  commit: string | null;
  branch: string | null;
  plan: { summary: string; steps: string[] } | null;
  diff: (ArtifactRef & { files_changed: number; additions: number; deletions: number }) | null;
  verification: (ArtifactRef & { passed: boolean; problems: number }) | null;
  provenance: (ArtifactRef & { key_id: string; predicate_type: string }) | null;
  bundle: ArtifactRef | null;
  pushed_branch: string | null;
  iterations: number;
  /** The deployment auto_deploy started, if any. */
  deployment_id: string | null;
  /** The code review of the change verify made last (null when config.review is off). */
  review: { id: string; status: string; verdict: string | null; comments: number; blocking: number } | null;
}

export interface AiUsage extends TokenUsage {
  total_tokens: number;
  provider: string | null;
  model: string | null;
  calls: number;
}

export interface Workflow {
  id: string;
  project_id: string;
  name: string;
  status: WorkflowStatus;
  stages: StageName[];
  prompt: string;
  config: WorkflowConfig;
  stage_statuses: Record<StageName, StageStatus>;
  stage_timings: Record<StageName, StageTiming>;
  outputs: WorkflowOutputs;
  ai_usage: AiUsage;
  error: { stage: StageName | null; message: string } | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  /** Optimistic-lock counter: every change is conditional on the version it was computed from. */
  version: number;
}

/** What the API shows: the record without its bookkeeping. */
export type WorkflowView = Omit<Workflow, 'version'>;

/** The documented order of the fields (the table returns them in any order). */
const workflowFieldOrder: (keyof WorkflowView)[] = [
  'id',
  'project_id',
  'name',
  'status',
  'stages',
  'prompt',
  'config',
  'stage_statuses',
  'stage_timings',
  'outputs',
  'ai_usage',
  'error',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'duration_ms',
];

/** A map keyed by stage, in the stages' order (the table keeps map keys in no order). */
export const inStageOrder = <T>(byStage: Record<StageName, T>): Record<StageName, T> =>
  Object.fromEntries(stageNames.map((stage) => [stage, byStage[stage]])) as Record<StageName, T>;

export const viewOfWorkflow = (workflow: Workflow): WorkflowView =>
  Object.fromEntries(
    workflowFieldOrder.map((field) => [
      field,
      field === 'stage_statuses' || field === 'stage_timings'
        ? inStageOrder(workflow[field] as Record<StageName, unknown>)
        : // Workflows stored before reviews existed: reviewed by default, no review yet.
          field === 'config'
          ? { ...workflow.config, review: workflow.config.review ?? true }
          : field === 'outputs'
            ? { ...workflow.outputs, repository: workflow.outputs.repository ?? null, review: workflow.outputs.review ?? null }
            : workflow[field],
    ]),
  ) as unknown as WorkflowView;

/** Everything a stage needs to find its workflow; the state machine's input. */
export interface WorkflowRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

export const tenantOf = (ref: WorkflowRef): Tenant => ({ accountId: ref.account_id, mode: ref.mode });

export const emptyOutputs = (): WorkflowOutputs => ({
  docker_image: null,
  deployment_url: null,
  repository: null,
  commit: null,
  branch: null,
  plan: null,
  diff: null,
  verification: null,
  provenance: null,
  bundle: null,
  pushed_branch: null,
  iterations: 0,
  deployment_id: null,
  review: null,
});

export const newWorkflow = (input: {
  id: string;
  project_id: string;
  name: string | undefined;
  prompt: string;
  config: WorkflowConfig;
  now: string;
}): Workflow => ({
  id: input.id,
  project_id: input.project_id,
  name: input.name ?? defaultName(input.prompt),
  status: 'queued',
  stages: [...stageNames],
  prompt: input.prompt,
  config: input.config,
  stage_statuses: Object.fromEntries(stageNames.map((stage) => [stage, 'pending'])) as Record<StageName, StageStatus>,
  stage_timings: Object.fromEntries(
    stageNames.map((stage) => [stage, { started_at: null, completed_at: null, duration_ms: null, runs: 0 }]),
  ) as Record<StageName, StageTiming>,
  outputs: emptyOutputs(),
  ai_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, provider: null, model: null, calls: 0 },
  error: null,
  created_at: input.now,
  updated_at: input.now,
  started_at: null,
  completed_at: null,
  duration_ms: null,
  version: 1,
});

/**
 * What a name given in a request may not hold (control and bidirectional control characters, lone
 * surrogates: the name schema's rules), taken out of a name made from the prompt.
 */
const notInNames = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;

/** The prompt's first line that is not blank, cut to the name's 100 characters (code points, as a given name counts). */
export const defaultName = (prompt: string): string => {
  const firstLine =
    prompt
      .split('\n')
      .map((line) => line.replace(/\t/g, ' ').replace(notInNames, '').trim())
      .find((line) => line.length > 0) ?? 'Workflow';
  const characters = [...firstLine];
  return characters.length <= 100 ? firstLine : `${characters.slice(0, 99).join('')}…`;
};

export interface PendingEvent {
  type: EventType;
  data: Record<string, unknown>;
}

export const workflowSortFields = ['created_at'] as const;

export interface LogEntry {
  timestamp: string;
  stage: StageName | null;
  level: LogLevel;
  message: string;
}

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface WorkflowRepository {
  /**
   * Stores a new workflow with its `workflow.created` event, counting it as active on its
   * project. False when the project does not exist (nothing is written then).
   */
  create(tenant: Tenant, workflow: Workflow, event: PendingEvent): Promise<boolean>;
  get(tenant: Tenant, id: string): Promise<Workflow | undefined>;
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: { project_id?: string; status?: WorkflowStatus }): Promise<Page<Workflow>>;
  /**
   * Replaces `previous` by `next` if it is still at `previous.version`, with the events, in one
   * transaction; a workflow that finishes stops counting as active on its project. `logs` are
   * written in the same transaction. False when someone else changed it first.
   */
  save(tenant: Tenant, previous: Workflow, next: Workflow, events: PendingEvent[], logs?: LogEntry[]): Promise<boolean>;
  /**
   * Appends a log entry unless the workflow is cancelled: then nothing is written and the answer
   * is false, so a stage still at work after a cancel writes nothing more.
   */
  appendLog(tenant: Tenant, workflowId: string, entry: LogEntry): Promise<boolean>;
  listLogs(
    tenant: Tenant,
    workflowId: string,
    query: ListQuery<'timestamp'>,
    filters: { stage?: StageName; level?: LogLevel },
  ): Promise<Page<LogEntry>>;
}

/** One workflow at a time: what creating, cancelling and the stages use. */
export type WorkflowRecords = Pick<WorkflowRepository, 'create' | 'get' | 'save' | 'appendLog'>;

/** The lists of workflows and of a workflow's log. */
export type WorkflowLists = Pick<WorkflowRepository, 'list' | 'listLogs'>;
