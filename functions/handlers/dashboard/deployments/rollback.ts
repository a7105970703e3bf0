import { deploymentExecutorFromEnvironment } from '../../../adapters/deployments/sfn-deployment-executor';
import { requestRollback } from '../../../core/deployments/deployment-use-cases';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { rollbackPageRoute } from '../../../routes/dashboard-resources';
import { deploymentDeps } from '../../deployments/deps';

const deps = deploymentDeps(deploymentExecutorFromEnvironment);

/** As `POST /v1/deployments/{id}/rollback`, once confirmed: the previous completed deployment becomes current again. */
export const handler = dashboardPage(
  rollbackPageRoute,
  async (request) => {
    const id = request.event.pathParameters?.id ?? '';
    const back = `/dashboard/deployments/${encodeURIComponent(id)}`;
    const asked = confirmFirst(request, 'Roll back to the previous deployment of this environment?', back);
    if (asked) return asked;
    await requestRollback(request.tenant, id, deps);
    return { redirect: `${back}?done=rolling-back` };
  },
  { adminOnly: true },
);
