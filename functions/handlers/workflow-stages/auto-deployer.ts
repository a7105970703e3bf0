import { createDeployment } from '../../core/deployments/deployment-use-cases';
import { deploymentTenantOf, type Deployment } from '../../core/deployments/deployment';
import { ApiError } from '../../core/errors';
import type { AutoDeployer } from '../../core/workflows/stages/auto-deploy';
import { deploymentExecutorFromEnvironment } from '../../adapters/deployments/sfn-deployment-executor';
import { waitScaleFromEnvironment } from '../../adapters/runtime/webhook-runtime';
import { deploymentDeps } from '../deployments/deps';

const finished = ['completed', 'failed', 'rolled_back'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long package waits for the deployment: below the function's 15 minutes. */
const maxWaitMs = 12 * 60_000;

/**
 * auto_deploy through the deployments capability: the project's latest completed deployment is
 * the template (environment, provider, settings), the workflow's bundle the artifact.
 */
export const autoDeployerFromEnvironment = (env: NodeJS.ProcessEnv = process.env): AutoDeployer | undefined => {
  if (!env.DEPLOYMENT_STATE_MACHINE_ARN) return undefined;
  const deps = deploymentDeps(() => deploymentExecutorFromEnvironment(env));
  const scale = waitScaleFromEnvironment();
  return {
    async deploy(ref, workflow, bundle, branch) {
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
          { workflow_id: workflow.id, bundle },
        );
      } catch (error) {
        if (error instanceof ApiError) return { kind: 'skipped', reason: error.message };
        throw error;
      }

      const deadline = Date.now() + maxWaitMs;
      for (;;) {
        const current = await deps.deployments.get(tenant, deployment.id);
        if (current && finished.includes(current.status)) {
          return {
            kind: 'finished',
            deployment_id: current.id,
            status: current.status,
            url: current.url,
            error: current.error?.message ?? null,
          };
        }
        if (Date.now() > deadline) return { kind: 'still_running', deployment_id: deployment.id };
        await sleep(Math.max(50, 2000 * scale));
      }
    },
  };
};
