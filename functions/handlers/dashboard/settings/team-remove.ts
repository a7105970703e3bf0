import { removeTeamMember } from '../../../core/users/invitations';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { removeMemberRoute } from '../../../routes/dashboard-resources';

export const handler = dashboardPage(
  removeMemberRoute,
  async (request) => {
    const asked = confirmFirst(request, 'Remove this member from the account?', '/dashboard/team');
    if (asked) return asked;
    await removeTeamMember(
      {
        accountId: request.tenant.accountId,
        userId: request.event.pathParameters?.id ?? '',
        actorId: request.actor.userId,
        origin: request.from,
      },
      pageDepsFromEnvironment(),
    );
    return { redirect: '/dashboard/team?done=removed' };
  },
  { adminOnly: true },
);
