import { deploymentStatuses, environments } from '../../../core/deployments/deployment';
import { listDeployments } from '../../../core/deployments/deployment-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery, shownFilters } from '../../../http/pages/list-params';
import { DeploymentsPage } from '../../../pages/views/dashboard/deployments/deployments';
import { deploymentsRoute } from '../../../routes/dashboard-resources';
import { deploymentReadDeps } from '../../deployments/deps';
import { deploymentView } from '../../deployments/view';

export const handler = dashboardPage(deploymentsRoute, async (request) => {
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const errors: FilterErrors = {};
  const filters = {
    status: checkedFilter(request.query, 'status', deploymentStatuses, errors),
    environment: checkedFilter(request.query, 'environment', environments, errors),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const refused = filtersRefused(errors);
  const page = refused ? { items: [], total: 0 } : await listDeployments(request.tenant, query, filters, deploymentReadDeps());
  return {
    status: refused ? 400 : 200,
    page: DeploymentsPage({
      shell: request.shell,
      deployments: page.items.map(deploymentView),
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      filters: shownFilters(filters, request.query, errors),
      filterErrors: errors,
      hrefOf: (n) => listHref('/dashboard/deployments', request.query, { page: n }),
    }),
  };
});
