import { deploymentStatuses, environments } from '../../../core/deployments/deployment';
import { listDeployments } from '../../../core/deployments/deployment-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { filterValue, listHref, pageListQuery } from '../../../http/pages/list-params';
import { DeploymentsPage } from '../../../pages/views/dashboard/deployments/deployments';
import { deploymentsRoute } from '../../../routes/dashboard-resources';
import { deploymentReadDeps } from '../../deployments/deps';
import { deploymentView } from '../../deployments/view';

export const handler = dashboardPage(deploymentsRoute, async (request) => {
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const filters = {
    status: filterValue(request.query, 'status', deploymentStatuses),
    environment: filterValue(request.query, 'environment', environments),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const page = await listDeployments(request.tenant, query, filters, deploymentReadDeps());
  return {
    page: DeploymentsPage({
      shell: request.shell,
      deployments: page.items.map(deploymentView),
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      filters,
      hrefOf: (n) => listHref('/dashboard/deployments', request.query, { page: n }),
    }),
  };
});
