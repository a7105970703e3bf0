import { pageMeta } from '../../core/pagination';
import { listWorkflowLogs } from '../../core/workflows/workflow-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listWorkflowLogsRoute } from '../../routes/workflows';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowLogList, dynamoWorkflowReader } from '../../adapters/dynamodb/workflow-repository';

// The workflow (it must exist) and its log: no workflow writes, no workflow list.
const table = tableFromEnvironment();
const deps = { workflows: { ...dynamoWorkflowReader(table), ...dynamoWorkflowLogList(table) } };

export const handler = apiReadHandler(listWorkflowLogsRoute, async ({ principal, params, query: listParams }) => {
  // Logs read oldest first unless asked otherwise.
  const query = toListQuery({ ...listParams, order: listParams.order ?? 'asc' }, 'timestamp');
  const page = await listWorkflowLogs(principal, params.id, query, { stage: listParams.stage, level: listParams.level }, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
