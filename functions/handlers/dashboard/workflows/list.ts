import { workflowStatuses } from '../../../core/workflows/workflow';
import { listWorkflows } from '../../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { filterValue, listHref, pageListQuery } from '../../../http/pages/list-params';
import { WorkflowsPage } from '../../../pages/views/dashboard/workflows/workflows';
import { workflowsRoute } from '../../../routes/dashboard-resources';
import { workflowReadDeps } from '../../workflows/deps';

export const handler = dashboardPage(workflowsRoute, async (request) => {
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const filters = {
    status: filterValue(request.query, 'status', workflowStatuses),
    project_id: request.query.get('project_id')?.trim() || undefined,
  };
  const page = await listWorkflows(request.tenant, query, filters, workflowReadDeps());
  return {
    page: WorkflowsPage({
      shell: request.shell,
      workflows: page.items,
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      filters,
      hrefOf: (n) => listHref('/dashboard/workflows', request.query, { page: n }),
    }),
  };
});
