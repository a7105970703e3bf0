import { acceptInvitation } from '../../core/users/answer-invitation';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { acceptInvitationRoute } from '../../routes/dashboard';
import { orUnavailablePage } from './invitation-unavailable';

/** The invited person joins the account; the account chooser (where it now appears) says so. */
export const handler = pageHandler(acceptInvitationRoute, 'signed_in', async ({ signedIn, event, from }) =>
  orUnavailablePage(signedIn!, true, async () => {
    const accepted = await acceptInvitation(
      { id: event.pathParameters?.id ?? '', userId: signedIn!.user.id, origin: from },
      pageDepsFromEnvironment(),
    );
    return { redirect: `/dashboard/accounts?joined=${encodeURIComponent(accepted.invitation.account_id)}` };
  }),
);
