import { dashboardPage } from '../../../http/pages/dashboard-page';
import { teamRoute } from '../../../routes/dashboard-resources';
import { teamPage } from './team-page';

const notices: Record<string, string> = {
  invited: 'The invitation is sent: an e-mail with a one-time sign-in link is on its way.',
  invitation_sent:
    'The invitation is sent. They already have a user, so they join the account only when they accept it (within 7 days); until then it is listed under Pending invitations.',
  invitation_cancelled: 'The invitation is cancelled: its link no longer works.',
  removed: 'The member is removed from the account. Their personal access tokens stop working; the API keys they created keep working.',
};

export const handler = dashboardPage(
  teamRoute,
  async (request) => teamPage(request, { notice: notices[request.query.get('done') ?? ''] }),
  {
    formsBoundTo: 'account',
  },
);
