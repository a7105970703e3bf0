import type { Workflow, WorkflowRef } from '../workflow';

export type AutoDeployOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'finished'; deployment_id: string; status: string; url: string | null; error: string | null }
  | { kind: 'still_running'; deployment_id: string };

/**
 * `auto_deploy`: deploys the packaged change like the project's latest completed deployment
 * (same environment, provider and settings), with the workflow as the artifact, and waits for it.
 */
export interface AutoDeployer {
  deploy(
    ref: WorkflowRef,
    workflow: Workflow,
    bundle: { location: string; sha256: string; size: number },
    branch: string,
  ): Promise<AutoDeployOutcome>;
}
