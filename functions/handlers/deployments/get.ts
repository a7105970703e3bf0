import { getDeployment } from '../../core/deployments/deployment-use-cases';
import { apiHandler } from '../../http/api-handler';
import { getDeploymentRoute } from '../../routes/deployments';
import { deploymentDeps, deploymentView } from './deps';

const deps = deploymentDeps();

export const handler = apiHandler(getDeploymentRoute, async ({ principal, params }) => ({
  data: deploymentView(await getDeployment(principal, params.id, deps)),
}));
