import { getWorkflow } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { apiHandler } from '../../http/api-handler';
import { getWorkflowRoute } from '../../routes/workflows';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';

const deps = { workflows: dynamoWorkflowRepository(tableFromEnvironment()) };

export const handler = apiHandler(getWorkflowRoute, async ({ principal, params }) => ({
  data: viewOfWorkflow(await getWorkflow(principal, params.id, deps)),
}));
