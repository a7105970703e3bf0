import { getWorkflow } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { apiReadHandler } from '../../http/api-handler';
import { getWorkflowRoute } from '../../routes/workflows';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowReader } from '../../adapters/dynamodb/workflow-repository';

// A read wires the one call it makes: no writes, no outbox, no list paging.
const deps = { workflows: dynamoWorkflowReader(tableFromEnvironment()) };

export const handler = apiReadHandler(getWorkflowRoute, async ({ principal, params }) => ({
  data: viewOfWorkflow(await getWorkflow(principal, params.id, deps)),
}));
