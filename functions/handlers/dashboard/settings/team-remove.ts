import { removeTeamMember } from '../../../core/users/invitations';
import { keysCreatedBy } from '../../../core/users/manage-users';
import { confirmFirst, dashboardPage, isConfirmed } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { removeMemberRoute } from '../../../routes/dashboard-resources';
import { removalQuestion } from '../../../pages/views/dashboard/settings/team';

export const handler = dashboardPage(
  removeMemberRoute,
  async (request) => {
    const deps = pageDepsFromEnvironment();
    const userId = request.event.pathParameters?.id ?? '';
    if (!isConfirmed(request.form)) {
      // Without a script, the page that asks says what the dialog says.
      // Nobody's e-mail is named unless they are a member of this account.
      const { accountId } = request.tenant;
      const [membership, user, created] = await Promise.all([
        deps.users.getMembership(userId, accountId),
        deps.users.get(userId),
        keysCreatedBy(accountId, userId, deps),
      ]);
      const email = membership && user ? user.email : 'this member';
      const asked = confirmFirst(request, removalQuestion(email, created), '/dashboard/team');
      if (asked) return asked;
    }
    await removeTeamMember(
      {
        accountId: request.tenant.accountId,
        userId,
        actorId: request.actor.userId,
        origin: request.from,
      },
      deps,
    );
    return { redirect: '/dashboard/team?done=removed' };
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
