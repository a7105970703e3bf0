import { keysCreatedByPerson, listKeys } from '../../../core/credentials/dashboard-keys';
import { pendingInvitationsOfAccount } from '../../../core/users/invitations';
import { listUsers } from '../../../core/users/manage-users';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { TeamPage } from '../../../pages/views/dashboard/settings/team';

export const teamPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'actor'>,
  extra: { notice?: string; errors?: string[]; form?: { email: string; role: string }; fieldErrors?: Record<string, string> } = {},
  status = 200,
): Promise<PageResult> => {
  const deps = pageDepsFromEnvironment();
  const [members, keys, invitations] = await Promise.all([
    listUsers(request.tenant.accountId, deps),
    listKeys(request.tenant.accountId, deps),
    pendingInvitationsOfAccount(request.tenant.accountId, deps),
  ]);
  return {
    status,
    page: TeamPage({
      shell: request.shell,
      members,
      invitations,
      selfId: request.actor.userId,
      // For the removal dialog: how many keys each person made, and that their personal access tokens stop.
      keysCreated: keysCreatedByPerson(keys, deps.clock.now()),
      ...extra,
    }),
  };
};
