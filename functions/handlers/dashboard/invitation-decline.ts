import { declineInvitation } from '../../core/users/answer-invitation';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { declineInvitationRoute } from '../../routes/dashboard';
import { orUnavailablePage } from './invitation-unavailable';

/** The invited person says no; the account chooser says so. */
export const handler = pageHandler(declineInvitationRoute, 'signed_in', async ({ signedIn, event, from }) =>
  orUnavailablePage(signedIn!, true, async () => {
    await declineInvitation({ id: event.pathParameters?.id ?? '', userId: signedIn!.user.id, origin: from }, pageDepsFromEnvironment());
    return { redirect: '/dashboard/accounts?done=declined' };
  }),
);
