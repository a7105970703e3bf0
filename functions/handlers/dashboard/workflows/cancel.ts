import { workflowExecutorFromEnvironment } from '../../../adapters/workflows/sfn-executor';
import { cancelWorkflow } from '../../../core/workflows/workflow-use-cases';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { cancelWorkflowPageRoute } from '../../../routes/dashboard-resources';
import { workflowDeps } from '../../workflows/deps';

const deps = workflowDeps(workflowExecutorFromEnvironment);

/** As `POST /v1/workflows/{id}/cancel`, once confirmed: the execution stops, running and pending stages become `cancelled`. */
export const handler = dashboardPage(
  cancelWorkflowPageRoute,
  async (request) => {
    const id = request.event.pathParameters?.id ?? '';
    const back = `/dashboard/workflows/${encodeURIComponent(id)}`;
    const asked = confirmFirst(request, 'Cancel this workflow? Its running and pending stages stop.', back);
    if (asked) return asked;
    await cancelWorkflow(request.tenant, id, deps);
    return { redirect: `${back}?done=cancelled` };
  },
  { adminOnly: true },
);
