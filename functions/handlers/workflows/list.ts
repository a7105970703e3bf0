import { pageMeta } from '../../core/pagination';
import { listWorkflows } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { apiHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listWorkflowsRoute } from '../../routes/workflows';
import { workflowDeps } from './deps';

const deps = workflowDeps();

export const handler = apiHandler(listWorkflowsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listWorkflows(principal, query, { project_id: params.project_id, status: params.status }, deps);
  return { list: page.items.map(viewOfWorkflow), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
