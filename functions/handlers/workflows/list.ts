import { pageMeta } from '../../core/pagination';
import { listWorkflows } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listWorkflowsRoute } from '../../routes/workflows';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowList } from '../../adapters/dynamodb/workflow-repository';

// The list alone: no workflow writes, no log paging.
const deps = { workflows: dynamoWorkflowList(tableFromEnvironment()) };

export const handler = apiReadHandler(listWorkflowsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listWorkflows(principal, query, { project_id: params.project_id, status: params.status }, deps);
  return { list: page.items.map(viewOfWorkflow), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
