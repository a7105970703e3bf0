import { deleteClient } from '../../../core/oauth/manage-clients';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { deleteApplicationRoute } from '../../../routes/dashboard-resources';

export const handler = dashboardPage(
  deleteApplicationRoute,
  async (request) => {
    const asked = confirmFirst(
      request,
      'Delete this application? Every token it holds stops working.',
      '/dashboard/developers/applications',
    );
    if (asked) return asked;
    await deleteClient(
      {
        accountId: request.tenant.accountId,
        clientId: request.event.pathParameters?.id ?? '',
        actor: { type: 'user', id: request.actor.userId },
        origin: request.from,
      },
      pageDepsFromEnvironment(),
    );
    return { redirect: '/dashboard/developers/applications?done=deleted' };
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
