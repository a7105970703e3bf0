import { stageNames } from '../../../core/workflows/stage-data';
import { logLevels } from '../../../core/workflows/workflow';
import { getWorkflow, listWorkflowLogs } from '../../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery, shownFilters } from '../../../http/pages/list-params';
import { WorkflowPage } from '../../../pages/views/dashboard/workflows/workflow';
import { workflowPageRoute } from '../../../routes/dashboard-resources';
import { workflowReadDeps } from '../../workflows/deps';

const notices: Record<string, string> = { cancelled: 'The workflow is cancelled.' };

/** A workflow with its stages (live while it runs) and its logs, filtered by stage and level. */
export const handler = dashboardPage(workflowPageRoute, async (request) => {
  const deps = workflowReadDeps();
  const workflow = await getWorkflow(request.tenant, request.event.pathParameters?.id ?? '', deps);
  const query = {
    ...pageListQuery(request.query, { sorts: ['timestamp'] as const, defaultSort: 'timestamp', perPage: 50 }),
    order: 'asc' as const,
  };
  const errors: FilterErrors = {};
  const filters = {
    stage: checkedFilter(request.query, 'stage', stageNames, errors),
    level: checkedFilter(request.query, 'level', logLevels, errors),
  };
  // A refused filter lists no log lines; the rest of the page stays (its stages live too).
  const refused = filtersRefused(errors);
  const logs = refused ? { items: [], total: 0 } : await listWorkflowLogs(request.tenant, workflow.id, query, filters, deps);
  return {
    status: refused ? 400 : 200,
    page: WorkflowPage({
      shell: request.shell,
      workflow,
      logs: logs.items,
      logPage: query.page,
      logTotal: logs.total,
      logTotalPages: Math.ceil(logs.total / query.perPage),
      filters: shownFilters(filters, request.query, errors),
      filterErrors: errors,
      hrefOf: (n) => listHref(request.event.rawPath, request.query, { page: n }),
      notice: notices[request.query.get('done') ?? ''],
    }),
  };
});
