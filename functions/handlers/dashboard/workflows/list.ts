import { workflowStatuses } from '../../../core/workflows/workflow';
import { listWorkflows } from '../../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery, shownFilters } from '../../../http/pages/list-params';
import { WorkflowsPage } from '../../../pages/views/dashboard/workflows/workflows';
import { workflowsRoute } from '../../../routes/dashboard-resources';
import { workflowReadDeps } from '../../workflows/deps';

export const handler = dashboardPage(workflowsRoute, async (request) => {
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const errors: FilterErrors = {};
  const filters = {
    status: checkedFilter(request.query, 'status', workflowStatuses, errors),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const refused = filtersRefused(errors);
  const page = refused ? { items: [], total: 0 } : await listWorkflows(request.tenant, query, filters, workflowReadDeps());
  return {
    status: refused ? 400 : 200,
    page: WorkflowsPage({
      shell: request.shell,
      workflows: page.items,
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      filters: shownFilters(filters, request.query, errors),
      filterErrors: errors,
      hrefOf: (n) => listHref('/dashboard/workflows', request.query, { page: n }),
    }),
  };
});
