import { createDeployment } from '../../core/deployments/deployment-use-cases';
import { deploymentTenantOf, type Deployment } from '../../core/deployments/deployment';
import { ApiError } from '../../core/errors';
import type { AutoDeployer, AutoDeployWatch } from '../../core/workflows/stages/auto-deploy';
import { deploymentExecutorFromEnvironment } from '../../adapters/deployments/sfn-deployment-executor';
import { waitScaleFromEnvironment } from '../../adapters/runtime/webhook-runtime';
import { deploymentDeps, deploymentReadDeps } from '../deployments/deps';

/** How long a workflow waits for its deployment (an hour; LOCAL_WAIT_SCALE applies locally). */
const maxWaitMs = 60 * 60_000;

/**
 * auto_deploy through the deployments capability: the project's latest completed deployment is
 * the template (environment, provider, settings), the workflow's bundle the artifact.
 */
export const autoDeployerFromEnvironment = (env: NodeJS.ProcessEnv = process.env): AutoDeployer | undefined => {
  if (!env.DEPLOYMENT_STATE_MACHINE_ARN) return undefined;
  // The list finds the template deployment; the rest creates one as the API does.
  const deps = { ...deploymentDeps(() => deploymentExecutorFromEnvironment(env)), ...deploymentReadDeps() };
  return {
    async start(ref, workflow, bundle, branch) {
      const tenant = deploymentTenantOf(ref);
      const latest = await deps.deployments.list(
        tenant,
        { page: 1, perPage: 1, sort: 'created_at', order: 'desc' },
        { project_id: workflow.project_id, status: 'completed' },
      );
      const template = latest.items[0];
      if (!template)
        return { kind: 'skipped', reason: 'the project has no completed deployment to take the environment, provider and settings from' };
      let deployment: Deployment;
      try {
        deployment = await createDeployment(
          tenant,
          {
            project_id: workflow.project_id,
            environment: template.environment,
            provider: template.provider,
            config: { ...template.config, branch, auto_rollback: template.auto_rollback },
          },
          deps,
          { artifact: { workflow_id: workflow.id, bundle }, repository: workflow.outputs.repository ?? null },
        );
      } catch (error) {
        if (error instanceof ApiError) return { kind: 'skipped', reason: error.message };
        throw error;
      }
      return { kind: 'started', deployment_id: deployment.id };
    },
  };
};

/** Reads deployments from the table: the workflow control function's view of auto_deploy. */
export const autoDeployWatchFromEnvironment = (): AutoDeployWatch => {
  const deps = deploymentDeps();
  return {
    async get(ref, deploymentId) {
      const deployment = await deps.deployments.get(deploymentTenantOf(ref), deploymentId);
      if (!deployment) return undefined;
      return {
        status: deployment.status,
        url: deployment.url,
        error: deployment.error?.message ?? null,
        created_at: deployment.created_at,
      };
    },
    maxWaitMs: maxWaitMs * waitScaleFromEnvironment(),
  };
};
