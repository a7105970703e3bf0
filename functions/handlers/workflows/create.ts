import { createWorkflow } from '../../core/workflows/workflow-use-cases';
import { viewOfWorkflow } from '../../core/workflows/workflow';
import { workflowExecutorFromEnvironment } from '../../adapters/workflows/sfn-executor';
import { apiHandler } from '../../http/api-handler';
import { createWorkflowRoute } from '../../routes/workflows';
import { workflowDeps } from './deps';

const deps = workflowDeps(workflowExecutorFromEnvironment);

export const handler = apiHandler(createWorkflowRoute, async ({ principal, body }) => {
  const workflow = await createWorkflow(principal, body, deps);
  return { data: viewOfWorkflow(workflow), location: `/v1/workflows/${workflow.id}` };
});
