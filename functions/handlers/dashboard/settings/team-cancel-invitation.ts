import { cancelInvitation, invitationOfAccount } from '../../../core/users/invitations';
import { confirmFirst, dashboardPage, isConfirmed } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { cancellationQuestion } from '../../../pages/views/dashboard/settings/team';
import { cancelInvitationRoute } from '../../../routes/dashboard-resources';

export const handler = dashboardPage(
  cancelInvitationRoute,
  async (request) => {
    const deps = pageDepsFromEnvironment();
    const invitationId = request.event.pathParameters?.id ?? '';
    if (!isConfirmed(request.form)) {
      // Without a script, the page that asks says what the dialog says; only this account's invitations are named.
      const invitation = await invitationOfAccount(request.tenant.accountId, invitationId, deps);
      const asked = confirmFirst(request, cancellationQuestion(invitation?.email ?? 'this person'), '/dashboard/team');
      if (asked) return asked;
    }
    await cancelInvitation(
      { accountId: request.tenant.accountId, invitationId, actorId: request.actor.userId, origin: request.from },
      deps,
    );
    return { redirect: '/dashboard/team?done=invitation_cancelled' };
  },
  { adminOnly: true },
);
