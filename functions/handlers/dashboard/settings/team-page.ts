import { listUsers } from '../../../core/users/manage-users';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { TeamPage } from '../../../pages/views/dashboard/settings/team';

export const teamPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'actor'>,
  extra: { notice?: string; errors?: string[] } = {},
  status = 200,
): Promise<PageResult> => ({
  status,
  page: TeamPage({
    shell: request.shell,
    members: await listUsers(request.tenant.accountId, pageDepsFromEnvironment()),
    selfId: request.actor.userId,
    ...extra,
  }),
});
