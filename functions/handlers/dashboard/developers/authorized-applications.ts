import { listAuthorizedApplications } from '../../../core/oauth/authorized-applications';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { AuthorizedApplicationsPage } from '../../../pages/views/dashboard/developers/authorized-applications';
import { authorizedApplicationsRoute } from '../../../routes/dashboard-resources';
import { memberEmails } from '../settings/member-emails';

const notices: Record<string, string> = { revoked: 'Revoked: the application’s tokens are refused from its next request on.' };

export const handler = dashboardPage(
  authorizedApplicationsRoute,
  async (request) => {
    const deps = pageDepsFromEnvironment();
    const applications = await listAuthorizedApplications(request.tenant.accountId, deps);
    return {
      page: AuthorizedApplicationsPage({
        shell: request.shell,
        applications,
        emails: await memberEmails(
          applications.map((a) => a.user_id),
          deps,
        ),
        selfId: request.actor.userId,
        notice: notices[request.query.get('done') ?? ''],
      }),
    };
  },
  { formsBoundTo: 'account' },
);
