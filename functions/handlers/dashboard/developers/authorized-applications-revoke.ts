import { revokeAuthorizedApplication } from '../../../core/oauth/authorized-applications';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { revokeAuthorizedApplicationRoute } from '../../../routes/dashboard-resources';

export const handler = dashboardPage(
  revokeAuthorizedApplicationRoute,
  async (request) => {
    const back = '/dashboard/developers/authorized-applications';
    const asked = confirmFirst(request, 'Revoke this application? Its tokens stop working on its next request.', back);
    if (asked) return asked;
    await revokeAuthorizedApplication(request.actor, request.event.pathParameters?.id ?? '', pageDepsFromEnvironment());
    return { redirect: `${back}?done=revoked` };
  },
  { formsBoundTo: 'account' },
);
