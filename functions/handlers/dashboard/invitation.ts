import { openInvitation } from '../../core/users/answer-invitation';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { InvitationPage } from '../../pages/views/invitation';
import { invitationRoute } from '../../routes/dashboard';
import { orUnavailablePage } from './invitation-unavailable';

/** Where the e-mail's link leads: signed in as the invited person, the invitation with Accept and Decline. */
export const handler = pageHandler(invitationRoute, 'signed_in', async ({ signedIn, event }) =>
  orUnavailablePage(signedIn!, false, async () => {
    const details = await openInvitation(event.pathParameters?.id ?? '', signedIn!.user.id, pageDepsFromEnvironment());
    return { page: InvitationPage({ viewer: signedIn!.viewer, details }) };
  }),
);
