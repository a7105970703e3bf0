import { getDeployment } from '../../../core/deployments/deployment-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { DeploymentPage } from '../../../pages/views/dashboard/deployments/deployment';
import { deploymentPageRoute } from '../../../routes/dashboard-resources';
import { deploymentReadDeps } from '../../deployments/deps';
import { deploymentView } from '../../deployments/view';

const notices: Record<string, string> = { 'rolling-back': 'Rollback requested: the previous deployment is being made current again.' };

export const handler = dashboardPage(deploymentPageRoute, async (request) => ({
  page: DeploymentPage({
    shell: request.shell,
    deployment: deploymentView(await getDeployment(request.tenant, request.event.pathParameters?.id ?? '', deploymentReadDeps())),
    notice: notices[request.query.get('done') ?? ''],
  }),
}));
