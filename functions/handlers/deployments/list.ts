import { pageMeta } from '../../core/pagination';
import { listDeployments } from '../../core/deployments/deployment-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listDeploymentsRoute } from '../../routes/deployments';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRepository } from '../../adapters/dynamodb/deployment-repository';
import { deploymentView } from './view';

const deps = { deployments: dynamoDeploymentRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(listDeploymentsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listDeployments(
    principal,
    query,
    { project_id: params.project_id, environment: params.environment, status: params.status },
    deps,
  );
  return { list: page.items.map(deploymentView), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
