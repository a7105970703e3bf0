import { mailerFromEnvironment } from '../../../adapters/runtime/mailer';
import { ApiError } from '../../../core/errors';
import { inviteMember } from '../../../core/users/invitations';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { inviteMemberRoute } from '../../../routes/dashboard-resources';
import { teamPage } from './team-page';

/**
 * Invites by e-mail: someone with a user gets an invitation to accept, a new person a link to choose
 * a password. Either goes by mail (SES in AWS, the outbox locally), never onto the page.
 */
export const handler = dashboardPage(
  inviteMemberRoute,
  async (request) => {
    const form = { email: request.form.get('email') ?? '', role: request.form.get('role') ?? 'viewer' };
    try {
      const invited = await inviteMember(
        {
          accountId: request.tenant.accountId,
          email: form.email,
          role: form.role,
          actorId: request.actor.userId,
          origin: request.from,
          serviceOrigin: request.origin,
        },
        { ...pageDepsFromEnvironment(), mailer: mailerFromEnvironment() },
      );
      // Told by the page the answer redirects to: a reload shows the team, and invites no one again.
      return { redirect: `/dashboard/team?done=${invited.kind === 'invitation' ? 'invitation_sent' : 'invited'}` };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'conflict') return teamPage(request, { errors: [error.message], form }, 409);
      const errors = formErrors(error, { email: 'Email', role: 'Role' });
      return teamPage(request, { errors, fieldErrors: fieldErrors(error), form }, 422);
    }
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
