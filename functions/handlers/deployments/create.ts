import { createDeployment } from '../../core/deployments/deployment-use-cases';
import { deploymentExecutorFromEnvironment } from '../../adapters/deployments/sfn-deployment-executor';
import { apiHandler } from '../../http/api-handler';
import { createDeploymentRoute } from '../../routes/deployments';
import { deploymentDeps } from './deps';
import { deploymentView } from './view';

const deps = deploymentDeps(deploymentExecutorFromEnvironment);

export const handler = apiHandler(createDeploymentRoute, async ({ principal, body }) => {
  const deployment = await createDeployment(principal, body, deps);
  return { data: deploymentView(deployment), location: `/v1/deployments/${deployment.id}` };
});
