import { listClients } from '../../../core/oauth/manage-clients';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { ApplicationsPage, type ApplicationsPageProps } from '../../../pages/views/dashboard/developers/applications';

export const applicationsPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant'>,
  extra: Partial<ApplicationsPageProps> = {},
  status = 200,
): Promise<PageResult> => ({
  status,
  page: ApplicationsPage({
    shell: request.shell,
    applications: await listClients(request.tenant.accountId, pageDepsFromEnvironment()),
    ...extra,
  }),
});
