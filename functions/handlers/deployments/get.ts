import { getDeployment } from '../../core/deployments/deployment-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getDeploymentRoute } from '../../routes/deployments';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRecords } from '../../adapters/dynamodb/deployment-repository';
import { deploymentView } from './view';

const deps = { deployments: dynamoDeploymentRecords(tableFromEnvironment()) };

export const handler = apiReadHandler(getDeploymentRoute, async ({ principal, params }) => ({
  data: deploymentView(await getDeployment(principal, params.id, deps)),
}));
