import { registerClient } from '../../../core/oauth/manage-clients';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { createApplicationRoute } from '../../../routes/dashboard-resources';
import { redirectUrisOf } from './applications-form';
import { applicationsPage } from './applications-page';

/** Registers an application; a confidential one's secret is shown this once, in this answer. */
export const handler = dashboardPage(
  createApplicationRoute,
  async (request) => {
    const form = {
      name: request.form.get('name') ?? '',
      redirect_uris: request.form.get('redirect_uris') ?? '',
      public: request.form.get('public') === 'true',
    };
    await request.takeEffectOnce();
    try {
      const { client_secret, ...application } = await registerClient(
        {
          accountId: request.tenant.accountId,
          name: form.name,
          redirectUris: redirectUrisOf(form.redirect_uris),
          public: form.public,
          actor: { type: 'user', id: request.actor.userId },
          origin: request.from,
        },
        pageDepsFromEnvironment(),
      );
      return applicationsPage(request, {
        registered: application,
        ...(client_secret ? { secret: { application, value: client_secret } } : {}),
      });
    } catch (error) {
      const errors = formErrors(error, { redirect_uris: 'Redirect URIs', name: 'Name' });
      return applicationsPage(request, { errors, fieldErrors: fieldErrors(error), form }, 422);
    }
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
