import { getWorkflow } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { apiHandler } from '../../http/api-handler';
import { getWorkflowRoute } from '../../routes/workflows';
import { workflowDeps } from './deps';

const deps = workflowDeps();

export const handler = apiHandler(getWorkflowRoute, async ({ principal, params }) => ({
  data: viewOfWorkflow(await getWorkflow(principal, params.id, deps)),
}));
