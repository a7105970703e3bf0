import { stageNames } from '../../../core/workflows/stage-data';
import { logLevels } from '../../../core/workflows/workflow';
import { getWorkflow, listWorkflowLogs } from '../../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { filterValue, listHref, pageListQuery } from '../../../http/pages/list-params';
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
  const filters = { stage: filterValue(request.query, 'stage', stageNames), level: filterValue(request.query, 'level', logLevels) };
  const logs = await listWorkflowLogs(request.tenant, workflow.id, query, filters, deps);
  return {
    page: WorkflowPage({
      shell: request.shell,
      workflow,
      logs: logs.items,
      logPage: query.page,
      logTotal: logs.total,
      logTotalPages: Math.ceil(logs.total / query.perPage),
      filters,
      hrefOf: (n) => listHref(request.event.rawPath, request.query, { page: n }),
      notice: notices[request.query.get('done') ?? ''],
    }),
  };
});
