import type { Clock } from '../../clock';
import { applyTransition } from '../apply-transition';
import { recordOutputs } from '../transitions';
import { tenantOf, type Workflow, type WorkflowRef, type WorkflowRepository } from '../workflow';
import { stageLog } from './run-stage';

export type AutoDeployStart = { kind: 'skipped'; reason: string } | { kind: 'started'; deployment_id: string };

/** What the workflow needs to know of the deployment it started. */
export interface AutoDeployState {
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'rolled_back';
  url: string | null;
  error: string | null;
  created_at: string;
}

/**
 * `auto_deploy`: deploys the packaged change like the project's latest completed deployment
 * (same environment, provider and settings), with the workflow as the artifact. The package stage
 * starts it; the workflow's state machine then waits for it (Wait and CheckAutoDeploy states of
 * `state-machines/workflow.asl.json`), so no function idles while the deployment runs.
 */
export interface AutoDeployer {
  start(
    ref: WorkflowRef,
    workflow: Workflow,
    bundle: { location: string; sha256: string; size: number },
    branch: string,
  ): Promise<AutoDeployStart>;
}

/** Reads the deployment auto_deploy started. */
export interface AutoDeployWatch {
  get(ref: WorkflowRef, deploymentId: string): Promise<AutoDeployState | undefined>;
  /** After this long the workflow completes without the deployment's URL (its events tell how it ends). */
  maxWaitMs: number;
}

/** What the package stage hands the state machine. */
export interface AutoDeployAnswer {
  auto_deploy: { started: boolean; deployment_id: string | null };
}

const finishedStatuses: AutoDeployState['status'][] = ['completed', 'failed', 'rolled_back'];

/**
 * One look at the deployment: completed records its URL on the workflow; failed or rolled back
 * throws (the state machine fails the package stage with the reason); still running past the
 * wait's limit completes the workflow without the URL. `finished: false` waits and looks again.
 */
export const checkAutoDeploy = async (
  deps: { workflows: WorkflowRepository; clock: Clock; watch: AutoDeployWatch },
  ref: WorkflowRef,
  deploymentId: string,
): Promise<{ finished: boolean }> => {
  const log = stageLog(deps, ref, 'package');
  const deployment = await deps.watch.get(ref, deploymentId);
  if (!deployment) throw new Error(`auto deploy ${deploymentId} not found`);
  if (finishedStatuses.includes(deployment.status)) {
    if (deployment.status !== 'completed')
      throw new Error(`auto deploy ${deploymentId} ${deployment.status}: ${deployment.error ?? 'no reason given'}`);
    await applyTransition(deps, tenantOf(ref), ref.id, (current, nowIso) =>
      recordOutputs(current, { deployment_id: deploymentId, deployment_url: deployment.url }, nowIso),
    );
    await log.info(`Deployed as ${deploymentId}${deployment.url ? ` at ${deployment.url}` : ''}`);
    return { finished: true };
  }
  if (deps.clock.now() - Date.parse(deployment.created_at) > deps.watch.maxWaitMs) {
    await log.warn(`Deployment ${deploymentId} is still in progress; its events will tell how it ends: deployment_url stays null`);
    return { finished: true };
  }
  return { finished: false };
};
