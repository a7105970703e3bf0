import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';
import type { DeployOutcome, HealthOutcome } from './providers/provider';

export const environments = ['production', 'staging', 'preview', 'development'] as const;
export type Environment = (typeof environments)[number];

export const deploymentStatuses = ['queued', 'in_progress', 'completed', 'failed', 'rolled_back'] as const;
export type DeploymentStatus = (typeof deploymentStatuses)[number];

/** How many health probes a deployment keeps (the latest ones). */
export const keptHealthChecks = 20;

export interface RollbackState {
  status: 'in_progress' | 'completed' | 'failed';
  /** The deployment made current again. */
  to: string;
  requested_at: string;
  completed_at: string | null;
  error: string | null;
  /** Why: `requested` by a caller, or `automatic` after a failed deployment. */
  trigger: 'requested' | 'automatic';
}

export interface Deployment {
  id: string;
  project_id: string;
  environment: Environment;
  provider: string;
  branch: string;
  auto_rollback: boolean;
  /** The provider's parsed config, defaults applied; may hold a secret (never shown: see viewOfDeployment). */
  config: Record<string, unknown>;
  artifact: { workflow_id: string; bundle: { location: string; sha256: string; size: number } | null } | null;
  /**
   * The repository it deploys, pinned once (the artifact's workflow's when created, else the
   * project's when it starts): every step and a later rollback to it tell the provider this one,
   * whatever the project names meanwhile. Absent on deployments stored before it was kept, whose
   * steps read the project's.
   */
  repository?: string;
  status: DeploymentStatus;
  url: string | null;
  version: string | null;
  deployed: DeployOutcome | null;
  health_checks: HealthOutcome[];
  /** Until when the application may take to answer healthy. */
  health_deadline_at: string | null;
  /** On a deployment made current again by a rollback: the deployment rolled back from. */
  rolled_back_from: string | null;
  /** On a deployment that was rolled back (or failed and was rolled back): where it went back to. */
  rolled_back_to: string | null;
  rollback: RollbackState | null;
  error: { step: string; message: string } | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  /** Optimistic-lock counter (`version` is the provider's version of the deployed code). */
  revision: number;
}

export type DeploymentView = Omit<Deployment, 'revision' | 'config' | 'deployed' | 'repository'> & { config: Record<string, unknown> };

export interface DeploymentRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

export const deploymentTenantOf = (ref: DeploymentRef): Tenant => ({ accountId: ref.account_id, mode: ref.mode });

/** What else a save changes besides the deployment itself, in the same transaction. */
export interface SaveEffects {
  /** Release the project/environment's in-progress lock held by this deployment. */
  releaseLock?: boolean;
  /** Point the project/environment's current deployment at this id. */
  setCurrent?: string;
  /** The deployment stops counting as active on its project. */
  finished?: boolean;
  /** Another deployment changed in the same transaction (a rollback's target). */
  alsoSave?: { previous: Deployment; next: Deployment };
}

export interface DeploymentRepository {
  /**
   * Stores a new deployment, taking the project/environment's in-progress lock and counting it as
   * active on its project. `project_missing` / `busy` (another one in progress) write nothing, and
   * so does `workflow_stopped`: with `whileWorkflowRuns`, the workflow (whose auto_deploy this is)
   * is no longer running, cancelled meanwhile.
   */
  create(
    tenant: Tenant,
    deployment: Deployment,
    options?: { whileWorkflowRuns?: string },
  ): Promise<'created' | 'project_missing' | 'busy' | 'workflow_stopped'>;
  get(tenant: Tenant, id: string): Promise<Deployment | undefined>;
  list(
    tenant: Tenant,
    query: ListQuery<'created_at'>,
    filters: { project_id?: string; environment?: Environment; status?: DeploymentStatus },
  ): Promise<Page<Deployment>>;
  save(tenant: Tenant, previous: Deployment, next: Deployment, events: PendingEvent[], effects?: SaveEffects): Promise<boolean>;
  /** The id of the project/environment's current (last completed, not rolled back) deployment. */
  currentId(tenant: Tenant, projectId: string, environment: Environment): Promise<string | undefined>;
  /** The latest completed deployment of the project/environment created before `beforeId`. */
  previousCompleted(tenant: Tenant, projectId: string, environment: Environment, beforeId: string): Promise<Deployment | undefined>;
  /**
   * Takes the in-progress lock for a rollback of `deployment` if it is still the current one and
   * unchanged, marking its rollback as requested and counting it as active on its project (until
   * the rollback ends). `busy` / `not_current` / `changed` write nothing.
   */
  beginRollback(tenant: Tenant, previous: Deployment, next: Deployment): Promise<'started' | 'busy' | 'not_current' | 'changed'>;
}

/** One deployment at a time and the reads a rollback makes: what creating and rolling back use. */
export type DeploymentRecords = Omit<DeploymentRepository, 'list'>;
