import { cancelWorkflow } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { workflowExecutorFromEnvironment } from '../../adapters/workflows/sfn-executor';
import { apiHandler } from '../../http/api-handler';
import { cancelWorkflowRoute } from '../../routes/workflows';
import { workflowDeps } from './deps';

const deps = workflowDeps(workflowExecutorFromEnvironment);

export const handler = apiHandler(cancelWorkflowRoute, async ({ principal, params }) => ({
  data: viewOfWorkflow(await cancelWorkflow(principal, params.id, deps)),
}));
