import { type Clock, isoTime } from '../clock';
import type { Project } from '../projects/project';
import type { PendingEvent } from '../workflows/workflow';
import {
  type Deployment,
  type DeploymentRef,
  type DeploymentRepository,
  deploymentTenantOf,
  keptHealthChecks,
  type SaveEffects,
} from './deployment';
import { type DeploymentProvider, type DeploymentTarget, healthSchedule, type HealthSettings } from './providers/provider';
import { deploymentSnapshot } from './snapshot';
import { failureMessage } from '../workflows/stages/control';
import { changeOptimistically } from '../optimistic-update';

/**
 * The steps of the deployment state machine (`state-machines/deployment.asl.json`), as plain
 * functions. Each reads the deployment, asks the provider, and stores the change with its event in
 * one transaction conditional on the revision it read.
 */
export interface StepDeps {
  deployments: DeploymentRepository;
  projects: { get(tenant: ReturnType<typeof deploymentTenantOf>, id: string): Promise<Project | undefined> };
  provider(name: string): DeploymentProvider<Record<string, unknown>>;
  clock: Clock;
  /** Multiplies health deadlines: 1 in AWS, LOCAL_WAIT_SCALE locally (the local runtime scales Waits by it too). */
  timeScale: number;
}

interface Change {
  next: Deployment;
  events?: PendingEvent[];
  effects?: SaveEffects;
}

export class DeploymentStateError extends Error {
  override readonly name = 'DeploymentStateError';
}

/** Read, change, store if unchanged meanwhile, else again. `null` from `change`: nothing to do. */
const applyChange = async (
  deps: { deployments: Pick<DeploymentRepository, 'get' | 'save'>; clock: Clock },
  ref: DeploymentRef,
  change: (deployment: Deployment, nowIso: string) => Change | null,
): Promise<Deployment> => {
  const tenant = deploymentTenantOf(ref);
  const stored = await changeOptimistically(
    `deployment ${ref.id}`,
    () => deps.deployments.get(tenant, ref.id),
    (current) => {
      const nowIso = isoTime(deps.clock.now());
      const result = change(current, nowIso);
      return result && { ...result, next: { ...result.next, updated_at: nowIso, revision: current.revision + 1 } };
    },
    async (current, { next, events, effects }) =>
      (await deps.deployments.save(tenant, current, next, events ?? [], effects)) ? next : null,
  );
  if (!stored) throw new DeploymentStateError(`deployment ${ref.id} not found`);
  return stored;
};

const elapsed = (fromIso: string | null, toIso: string): number | null =>
  fromIso ? Math.max(0, Date.parse(toIso) - Date.parse(fromIso)) : null;

const projectOf = async (deps: Pick<StepDeps, 'projects'>, ref: DeploymentRef, deployment: Deployment): Promise<Project> => {
  const project = await deps.projects.get(deploymentTenantOf(ref), deployment.project_id);
  if (!project) throw new DeploymentStateError(`project ${deployment.project_id} no longer exists`);
  return project;
};

/** The deployment's pinned repository; the project's for one stored before it was kept. */
const targetOf = async (deps: StepDeps, ref: DeploymentRef, deployment: Deployment): Promise<DeploymentTarget> => {
  const project = await projectOf(deps, ref, deployment);
  return {
    deployment_id: deployment.id,
    project: { id: project.id, name: project.name, repository: deployment.repository ?? project.repository },
    environment: deployment.environment,
    branch: deployment.branch,
    mode: ref.mode,
    artifact: deployment.artifact,
  };
};

/**
 * The repository a queued deployment will deploy: its own when created with one (the artifact's
 * workflow's), else the project's now. Undefined when there is nothing to start.
 */
const repositoryToPin = async (deps: StepDeps, ref: DeploymentRef): Promise<string | undefined> => {
  const deployment = await deps.deployments.get(deploymentTenantOf(ref), ref.id);
  if (deployment?.status !== 'queued') return undefined;
  return deployment.repository ?? (await projectOf(deps, ref, deployment)).repository;
};

/** Starts it, pinning the repository it deploys (see Deployment.repository). */
export const startDeployment = async (deps: StepDeps, ref: DeploymentRef): Promise<Deployment> => {
  const repository = await repositoryToPin(deps, ref);
  return applyChange(deps, ref, (deployment, nowIso) => {
    if (deployment.status !== 'queued') return null;
    const pinned = deployment.repository ?? repository;
    const next: Deployment = { ...deployment, status: 'in_progress', started_at: nowIso, ...(pinned ? { repository: pinned } : {}) };
    return { next, events: [{ type: 'deployment.started', data: deploymentSnapshot(next) }] };
  });
};

const requireInProgress = (deployment: Deployment): void => {
  if (deployment.status !== 'in_progress') throw new DeploymentStateError(`deployment ${deployment.id} is ${deployment.status}`);
};

/** Deploys through the provider; answers how long to wait before the first health probe. */
export const runDeploy = async (deps: StepDeps, ref: DeploymentRef): Promise<{ interval_seconds: number }> => {
  const deployment = await deps.deployments.get(deploymentTenantOf(ref), ref.id);
  if (!deployment) throw new DeploymentStateError(`deployment ${ref.id} not found`);
  requireInProgress(deployment);
  const provider = deps.provider(deployment.provider);
  const deployed = await provider.deploy(await targetOf(deps, ref, deployment), deployment.config);
  const schedule = healthSchedule(deployment.config as unknown as HealthSettings);
  await applyChange(deps, ref, (current) => {
    requireInProgress(current);
    const deadline = isoTime(deps.clock.now() + schedule.timeoutSeconds * 1000 * deps.timeScale);
    return { next: { ...current, deployed, url: deployed.url, version: deployed.version, health_deadline_at: deadline } };
  });
  // Whole seconds, as a Wait's SecondsPath requires (the local runtime scales the wait itself).
  return { interval_seconds: schedule.intervalSeconds };
};

/** One health probe, recorded; `expired` once the deadline has passed without a healthy answer. */
export const runHealthCheck = async (
  deps: StepDeps,
  ref: DeploymentRef,
): Promise<{ healthy: boolean; expired: boolean; interval_seconds: number }> => {
  const deployment = await deps.deployments.get(deploymentTenantOf(ref), ref.id);
  if (!deployment?.deployed) throw new DeploymentStateError(`deployment ${ref.id} has nothing deployed to check`);
  requireInProgress(deployment);
  const provider = deps.provider(deployment.provider);
  const outcome = await provider.checkHealth(await targetOf(deps, ref, deployment), deployment.config, deployment.deployed);
  await applyChange(deps, ref, (current) => ({
    next: { ...current, health_checks: [...current.health_checks, outcome].slice(-keptHealthChecks) },
  }));
  const expired =
    !outcome.healthy && deployment.health_deadline_at !== null && deps.clock.now() >= Date.parse(deployment.health_deadline_at);
  const schedule = healthSchedule(deployment.config as unknown as HealthSettings);
  return { healthy: outcome.healthy, expired, interval_seconds: schedule.intervalSeconds };
};

export const completeDeployment = (deps: StepDeps, ref: DeploymentRef): Promise<Deployment> =>
  applyChange(deps, ref, (deployment, nowIso) => {
    if (deployment.status === 'completed') return null;
    requireInProgress(deployment);
    const next: Deployment = {
      ...deployment,
      status: 'completed',
      completed_at: nowIso,
      duration_ms: elapsed(deployment.started_at, nowIso),
    };
    return {
      next,
      events: [{ type: 'deployment.completed', data: deploymentSnapshot(next) }],
      effects: { releaseLock: true, setCurrent: next.id, finished: true },
    };
  });

/**
 * Records the failure (event `deployment.failed`). With auto_rollback, when something was deployed
 * and an earlier completed deployment of the same provider exists, the lock stays held and the
 * answer says to roll back to it; otherwise (or with `rollBack: false`, where nothing would run
 * the rollback) the lock is released.
 */
export const recordFailure = async (
  deps: { deployments: Pick<DeploymentRepository, 'get' | 'save' | 'previousCompleted'>; clock: Clock },
  ref: DeploymentRef,
  error: { step: string; message: string },
  options: { rollBack?: boolean } = {},
): Promise<Deployment> => {
  const tenant = deploymentTenantOf(ref);
  const before = await deps.deployments.get(tenant, ref.id);
  const previous =
    options.rollBack !== false && before?.auto_rollback && before.deployed
      ? await deps.deployments.previousCompleted(tenant, before.project_id, before.environment, before.id)
      : undefined;
  const rollbackTo = previous && previous.provider === before?.provider ? previous : undefined;
  return applyChange(deps, ref, (deployment, nowIso) => {
    if (deployment.status !== 'queued' && deployment.status !== 'in_progress') return null;
    const next: Deployment = {
      ...deployment,
      status: 'failed',
      error,
      completed_at: nowIso,
      duration_ms: elapsed(deployment.started_at ?? deployment.created_at, nowIso),
      rollback: rollbackTo
        ? { status: 'in_progress', to: rollbackTo.id, requested_at: nowIso, completed_at: null, error: null, trigger: 'automatic' }
        : null,
    };
    return {
      next,
      events: [{ type: 'deployment.failed', data: deploymentSnapshot(next) }],
      effects: rollbackTo ? {} : { releaseLock: true, finished: true },
    };
  });
};

/**
 * Goes back to the rollback's target through the provider: after a failure (automatic) the failed
 * deployment records where it went back to; on request the current deployment becomes
 * `rolled_back` and its target current again. Event `deployment.rollback` either way.
 */
export const runRollback = async (deps: StepDeps, ref: DeploymentRef): Promise<Deployment> => {
  const tenant = deploymentTenantOf(ref);
  const deployment = await deps.deployments.get(tenant, ref.id);
  // A retried invocation whose first attempt finished the rollback: done already.
  if (deployment?.rollback?.status === 'completed') return deployment;
  if (!deployment?.rollback || deployment.rollback.status !== 'in_progress')
    throw new DeploymentStateError(`deployment ${ref.id} has no rollback in progress`);
  const target = await deps.deployments.get(tenant, deployment.rollback.to);
  if (!target?.deployed) throw new DeploymentStateError(`the rollback target ${deployment.rollback.to} has nothing deployed`);
  if (!deployment.deployed) throw new DeploymentStateError(`deployment ${ref.id} has nothing deployed to roll back`);
  const provider = deps.provider(deployment.provider);
  const restored = await provider.rollback(
    {
      current: { target: await targetOf(deps, ref, deployment), deployed: deployment.deployed },
      previous: { target: await targetOf(deps, ref, target), deployed: target.deployed },
    },
    deployment.config,
  );
  const automatic = deployment.rollback.trigger === 'automatic';
  return applyChange(deps, ref, (current, nowIso) => {
    if (current.rollback?.status !== 'in_progress') return null;
    const next: Deployment = {
      ...current,
      status: automatic ? current.status : 'rolled_back',
      rolled_back_to: target.id,
      rollback: { ...current.rollback, status: 'completed', completed_at: nowIso },
    };
    const restoredTarget: Deployment = {
      ...target,
      rolled_back_from: current.id,
      url: restored.url ?? target.url,
      updated_at: nowIso,
      revision: target.revision + 1,
    };
    return {
      next,
      events: [{ type: 'deployment.rollback', data: deploymentSnapshot(next) }],
      effects: {
        releaseLock: true,
        finished: true,
        alsoSave: { previous: target, next: restoredTarget },
        ...(automatic ? {} : { setCurrent: target.id }),
      },
    };
  });
};

/**
 * The rollback failed: say why on the deployment, announce it (`deployment.rollback` with
 * `rollback.status: failed`, as a completed one is announced with `completed`) and release the lock.
 */
export const recordRollbackFailure = (
  deps: { deployments: Pick<DeploymentRepository, 'get' | 'save'>; clock: Clock },
  ref: DeploymentRef,
  message: string,
): Promise<Deployment> =>
  applyChange(deps, ref, (deployment, nowIso) => {
    if (deployment.rollback?.status !== 'in_progress') return null;
    const next: Deployment = {
      ...deployment,
      rollback: { ...deployment.rollback, status: 'failed', completed_at: nowIso, error: message },
    };
    // Automatic or requested, the rollback counted as active on the project until now.
    return {
      next,
      events: [{ type: 'deployment.rollback', data: deploymentSnapshot(next) }],
      effects: { releaseLock: true, finished: true },
    };
  });

/** What a Catch hands over, as for workflows. */
export interface CaughtDeploymentError {
  Error?: string;
  Cause?: string;
}

/** The step a deployment was at, from how far it got: where a failure now belongs. */
export const stepReached = (deployment: Pick<Deployment, 'status' | 'deployed'>): 'start' | 'deploy' | 'health_check' =>
  deployment.status === 'queued' ? 'start' : deployment.deployed ? 'health_check' : 'deploy';

/** The step a failure belongs to follows from how far the deployment got. */
export const failFromCatch = async (deps: StepDeps, ref: DeploymentRef, caught: CaughtDeploymentError): Promise<{ rollback: boolean }> => {
  const deployment = await deps.deployments.get(deploymentTenantOf(ref), ref.id);
  if (!deployment) throw new DeploymentStateError(`deployment ${ref.id} not found`);
  const failed = await recordFailure(deps, ref, { step: stepReached(deployment), message: failureMessage(caught) });
  return { rollback: failed.status === 'failed' && failed.rollback?.status === 'in_progress' && failed.rollback.trigger === 'automatic' };
};
