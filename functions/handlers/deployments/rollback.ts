import { requestRollback } from '../../core/deployments/deployment-use-cases';
import { deploymentExecutorFromEnvironment } from '../../adapters/deployments/sfn-deployment-executor';
import { apiHandler } from '../../http/api-handler';
import { rollbackDeploymentRoute } from '../../routes/deployments';
import { deploymentRollbackDeps } from './deps';
import { deploymentView } from './view';

const deps = deploymentRollbackDeps(deploymentExecutorFromEnvironment);

export const handler = apiHandler(rollbackDeploymentRoute, async ({ principal, params }) => ({
  data: deploymentView(await requestRollback(principal, params.id, deps)),
}));
