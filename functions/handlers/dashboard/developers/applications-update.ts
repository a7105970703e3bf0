import { updateClient } from '../../../core/oauth/manage-clients';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { updateApplicationRoute } from '../../../routes/dashboard-resources';
import { applicationIdOf, applicationPage } from './application-page';
import { redirectUrisOf } from './applications-form';

/** Saves an application's name and redirect URIs (admins only), by the rules of registration. */
export const handler = dashboardPage(
  updateApplicationRoute,
  async (request) => {
    const id = applicationIdOf(request);
    const form = { name: request.form.get('name') ?? '', redirect_uris: request.form.get('redirect_uris') ?? '' };
    try {
      await updateClient(
        {
          accountId: request.tenant.accountId,
          clientId: id,
          name: form.name,
          redirectUris: redirectUrisOf(form.redirect_uris),
          actor: { type: 'user', id: request.actor.userId },
          origin: request.from,
        },
        pageDepsFromEnvironment(),
      );
      return { redirect: `/dashboard/developers/applications/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      const errors = formErrors(error, { redirect_uris: 'Redirect URIs', name: 'Name' });
      return applicationPage(request, { errors, fieldErrors: fieldErrors(error), form }, 422);
    }
  },
  { adminOnly: true, formsBoundTo: 'account' },
);
