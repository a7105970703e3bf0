import { type Clock, isoTime } from '../clock';
import { conflict, type FieldIssue, notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { Workflow } from '../workflows/workflow';
import type { Deployment, DeploymentRecords, DeploymentRepository, DeploymentStatus, Environment } from './deployment';
import type { DeploymentExecutor } from './deployment-executor';
import type { ConfigContext, ParsedConfig } from './providers/provider';
import { recordFailure, recordRollbackFailure } from './deployment-steps';

export interface ProviderCatalogue {
  names(): string[];
  parseConfig(name: string, config: Record<string, unknown>, context: ConfigContext): Promise<ParsedConfig<Record<string, unknown>>>;
}

export interface DeploymentDeps {
  deployments: DeploymentRecords;
  workflows: { get(tenant: Tenant, id: string): Promise<Workflow | undefined> };
  providers: ProviderCatalogue;
  executor: DeploymentExecutor;
  clock: Clock;
}

export interface NewDeployment {
  project_id: string;
  environment: Environment;
  provider: string;
  config: Record<string, unknown> & { branch: string; auto_rollback?: boolean };
  artifact?: string;
}

const unknownProject = (): FieldIssue => ({ field: 'project_id', issue: 'is not a project of this account and mode' });

/** A workflow's package to deploy, with the repository that workflow worked on (null when it recorded none). */
export interface ResolvedArtifact {
  artifact: NonNullable<Deployment['artifact']>;
  repository: string | null;
}

/** The workflow whose package output is deployed: it must be this project's, completed, with a bundle. */
const artifactOf = async (tenant: Tenant, input: NewDeployment, deps: DeploymentDeps): Promise<ResolvedArtifact | undefined> => {
  if (input.artifact === undefined) return undefined;
  const workflow = isId('workflow', input.artifact) ? await deps.workflows.get(tenant, input.artifact) : undefined;
  if (!workflow || workflow.project_id !== input.project_id)
    throw validationError([{ field: 'artifact', issue: 'is not a workflow of this project' }]);
  if (workflow.status !== 'completed' || !workflow.outputs.bundle) {
    throw validationError([
      {
        field: 'artifact',
        issue: `is a ${workflow.status} workflow with no package output; only a completed workflow's bundle can be deployed`,
      },
    ]);
  }
  return { artifact: { workflow_id: workflow.id, bundle: workflow.outputs.bundle }, repository: workflow.outputs.repository ?? null };
};

/**
 * `resolvedArtifact`: the package of a workflow still finishing (its auto_deploy), which the
 * public `artifact` check (a completed workflow) would refuse. A workflow's package is deployed
 * with the repository that workflow worked on, not the one its project names now.
 */
export const createDeployment = async (
  tenant: Tenant,
  input: NewDeployment,
  deps: DeploymentDeps,
  resolvedArtifact?: ResolvedArtifact,
): Promise<Deployment> => {
  const issues: FieldIssue[] = [];
  if (!deps.providers.names().includes(input.provider))
    issues.push({ field: 'provider', issue: `must be one of ${deps.providers.names().join(', ')}` });
  if (!isId('project', input.project_id)) issues.push(unknownProject());
  if (issues.length > 0) throw validationError(issues);

  const parsed = await deps.providers.parseConfig(input.provider, input.config, { mode: tenant.mode });
  if (!parsed.ok) throw validationError(parsed.issues);
  const resolved = resolvedArtifact ?? (await artifactOf(tenant, input, deps));

  const now = deps.clock.now();
  const at = isoTime(now);
  const deployment: Deployment = {
    id: newId('deployment', now),
    project_id: input.project_id,
    environment: input.environment,
    provider: input.provider,
    branch: input.config.branch,
    auto_rollback: input.config.auto_rollback ?? true,
    config: parsed.config,
    artifact: resolved?.artifact ?? null,
    ...(resolved?.repository ? { repository: resolved.repository } : {}),
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
  };
  // The catalogue has no `deployment.created`: the first event is `deployment.started`.
  // A workflow's auto_deploy only while the workflow runs: a cancelled one deploys nothing.
  const created = await deps.deployments.create(
    tenant,
    deployment,
    resolvedArtifact && { whileWorkflowRuns: resolvedArtifact.artifact.workflow_id },
  );
  if (created === 'project_missing') throw validationError([unknownProject()]);
  if (created === 'workflow_stopped') throw conflict('The workflow is no longer running; nothing was deployed.');
  if (created === 'busy')
    throw conflict(`Another deployment of this project to ${input.environment} is in progress; wait for it to finish.`);
  const ref = { account_id: tenant.accountId, mode: tenant.mode, id: deployment.id };
  try {
    await deps.executor.start({ action: 'deploy', deployment: ref }, deployment.id);
  } catch {
    // Stored but never started: say so (with its event, releasing the lock) rather than leave it queued.
    return recordFailure(deps, ref, { step: 'start', message: 'The deployment could not be started; create it again.' });
  }
  return deployment;
};

/** A malformed id names no deployment: 404 without a lookup. */
const checkedId = (id: string): string => {
  if (!isId('deployment', id)) throw notFound('Deployment');
  return id;
};

export const getDeployment = async (
  tenant: Tenant,
  id: string,
  deps: { deployments: Pick<DeploymentRepository, 'get'> },
): Promise<Deployment> => {
  const deployment = await deps.deployments.get(tenant, checkedId(id));
  if (!deployment) throw notFound('Deployment');
  return deployment;
};

export const listDeployments = (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: { project_id?: string; environment?: Environment; status?: DeploymentStatus },
  deps: { deployments: Pick<DeploymentRepository, 'list'> },
): Promise<Page<Deployment>> => {
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.deployments.list(tenant, query, filters);
};

/**
 * Accepts a rollback of the current completed deployment of its project and environment to the
 * previous completed one; the state machine carries it out. 409 when it is not the current one,
 * when there is nothing to go back to, or while another deployment there is in progress.
 */
export const requestRollback = async (
  tenant: Tenant,
  id: string,
  deps: Pick<DeploymentDeps, 'deployments' | 'executor' | 'clock'>,
): Promise<Deployment> => {
  const deployment = await getDeployment(tenant, id, deps);
  if (deployment.status !== 'completed')
    throw conflict(`The deployment is ${deployment.status}; only the current completed deployment can be rolled back.`);
  const previous = await deps.deployments.previousCompleted(tenant, deployment.project_id, deployment.environment, deployment.id);
  if (!previous) throw conflict(`There is no earlier completed deployment of this project to ${deployment.environment} to go back to.`);
  if (previous.provider !== deployment.provider) {
    throw conflict(
      `The previous completed deployment (${previous.id}) used ${previous.provider}, this one ${deployment.provider}: a rollback cannot change providers; deploy it again instead.`,
    );
  }
  const now = isoTime(deps.clock.now());
  const next: Deployment = {
    ...deployment,
    rollback: { status: 'in_progress', to: previous.id, requested_at: now, completed_at: null, error: null, trigger: 'requested' },
    updated_at: now,
    revision: deployment.revision + 1,
  };
  const outcome = await deps.deployments.beginRollback(tenant, deployment, next);
  if (outcome === 'busy')
    throw conflict(`Another deployment or rollback of this project to ${deployment.environment} is in progress; wait for it to finish.`);
  if (outcome === 'not_current')
    throw conflict('The deployment is not the current one of its project and environment; only the current deployment can be rolled back.');
  if (outcome === 'changed') throw conflict('The deployment changed meanwhile; read it again and retry.');
  const ref = { account_id: tenant.accountId, mode: tenant.mode, id: deployment.id };
  try {
    await deps.executor.start({ action: 'rollback', deployment: ref }, `${deployment.id}-rollback-${Date.parse(now)}`);
  } catch {
    return recordRollbackFailure(deps, ref, 'The rollback could not be started; try again.');
  }
  return next;
};
