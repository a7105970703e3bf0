import { getClient } from '../../../core/oauth/manage-clients';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { ApplicationPage, type ApplicationPageProps } from '../../../pages/views/dashboard/developers/application';

export const applicationIdOf = (request: Pick<DashboardRequest, 'event'>): string => request.event.pathParameters?.id ?? '';

/** An application of the account with its edit form; another account's is not found (404). */
export const applicationPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'event'>,
  extra: Omit<Partial<ApplicationPageProps>, 'shell'> = {},
  status = 200,
): Promise<PageResult> => ({
  status,
  page: ApplicationPage({
    shell: request.shell,
    application: extra.application ?? (await getClient(request.tenant.accountId, applicationIdOf(request), pageDepsFromEnvironment())),
    ...extra,
  }),
});
