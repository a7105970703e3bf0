import { rotateClientSecret } from '../../../core/oauth/manage-clients';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { rotateApplicationSecretRoute } from '../../../routes/dashboard-resources';
import { applicationsPage } from './applications-page';

export const handler = dashboardPage(
  rotateApplicationSecretRoute,
  async (request) => {
    const asked = confirmFirst(
      request,
      'Rotate the client secret? The old one stops working at once.',
      '/dashboard/developers/applications',
    );
    if (asked) return asked;
    await request.takeEffectOnce();
    const { client_secret, ...application } = await rotateClientSecret(
      {
        accountId: request.tenant.accountId,
        clientId: request.event.pathParameters?.id ?? '',
        actor: { type: 'user', id: request.actor.userId },
        origin: request.from,
      },
      pageDepsFromEnvironment(),
    );
    return applicationsPage(request, client_secret ? { secret: { application, value: client_secret } } : {});
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
