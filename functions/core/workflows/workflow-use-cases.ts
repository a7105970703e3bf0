import { type Clock, isoTime } from '../clock';
import { notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import { applyTransition } from './apply-transition';
import type { StageName } from './stage-data';
import { cancelRun, failRun, workflowSnapshot } from './transitions';
import type { WorkflowExecutor } from './workflow-executor';
import {
  type LogEntry,
  type LogLevel,
  newWorkflow,
  type Workflow,
  type WorkflowRecords,
  type WorkflowRepository,
  type WorkflowStatus,
} from './workflow';

export interface WorkflowDeps {
  workflows: WorkflowRecords;
  executor: WorkflowExecutor;
  clock: Clock;
  /** The AI providers this deployment has configured. */
  configuredProviders: () => string[];
}

export interface NewWorkflow {
  project_id: string;
  prompt: string;
  name?: string;
  config?: { ai_provider?: string; auto_deploy?: boolean; branch?: string; max_iterations?: number; review?: boolean };
}

const unknownProject = () => validationError([{ field: 'project_id', issue: 'is not a project of this account and mode' }]);

export const createWorkflow = async (tenant: Tenant, input: NewWorkflow, deps: WorkflowDeps): Promise<Workflow> => {
  const configured = deps.configuredProviders();
  const config = input.config ?? {};
  // As for generated tests: the first provider this deployment configured when none is named.
  const provider = config.ai_provider ?? configured[0];
  if (!provider || !configured.includes(provider)) {
    throw validationError([
      { field: 'config.ai_provider', issue: `is not configured in this deployment; configured: ${configured.join(', ') || 'none'}` },
    ]);
  }
  if (!isId('project', input.project_id)) throw unknownProject();

  const now = deps.clock.now();
  const workflow = newWorkflow({
    id: newId('workflow', now),
    project_id: input.project_id,
    name: input.name,
    prompt: input.prompt,
    config: {
      ai_provider: provider,
      auto_deploy: config.auto_deploy ?? false,
      branch: config.branch ?? null,
      max_iterations: config.max_iterations ?? 2,
      review: config.review ?? true,
    },
    now: isoTime(now),
  });
  if (!(await deps.workflows.create(tenant, workflow, { type: 'workflow.created', data: workflowSnapshot(workflow) })))
    throw unknownProject();

  try {
    await deps.executor.start({
      workflow: { account_id: tenant.accountId, mode: tenant.mode, id: workflow.id, project_id: workflow.project_id },
      max_iterations: workflow.config.max_iterations,
    });
  } catch {
    // Stored but never started: say so on the record (with its event) rather than leave it queued.
    return applyTransition(deps, tenant, workflow.id, (current, nowIso) =>
      failRun(current, { stage: null, message: 'The workflow could not be started; create it again.' }, nowIso),
    );
  }
  return workflow;
};

/** A malformed id names no workflow: 404 without a lookup. */
const checkedId = (id: string): string => {
  if (!isId('workflow', id)) throw notFound('Workflow');
  return id;
};

export const getWorkflow = async (tenant: Tenant, id: string, deps: { workflows: Pick<WorkflowRepository, 'get'> }): Promise<Workflow> => {
  const workflow = await deps.workflows.get(tenant, checkedId(id));
  if (!workflow) throw notFound('Workflow');
  return workflow;
};

export const listWorkflows = (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: { project_id?: string; status?: WorkflowStatus },
  deps: { workflows: Pick<WorkflowRepository, 'list'> },
): Promise<Page<Workflow>> => {
  // A malformed project id matches nothing; no need to ask the table.
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.workflows.list(tenant, query, filters);
};

export const listWorkflowLogs = async (
  tenant: Tenant,
  id: string,
  query: ListQuery<'timestamp'>,
  filters: { stage?: StageName; level?: LogLevel },
  deps: { workflows: Pick<WorkflowRepository, 'get' | 'listLogs'> },
): Promise<Page<LogEntry>> => {
  await getWorkflow(tenant, id, deps);
  return deps.workflows.listLogs(tenant, id, query, filters);
};

export const cancelWorkflow = async (tenant: Tenant, id: string, deps: WorkflowDeps): Promise<Workflow> => {
  await getWorkflow(tenant, id, deps);
  const cancelled = await applyTransition(deps, tenant, id, cancelRun);
  // After the record: a stage finishing meanwhile finds the workflow cancelled and changes nothing,
  // so an execution that could not be stopped now only runs into that and ends.
  await deps.executor.stop(id, 'cancelled by the caller').catch(() => undefined);
  return cancelled;
};
