import { createKey } from '../../../core/credentials/dashboard-keys';
import { ApiError } from '../../../core/errors';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { createApiKeyRoute } from '../../../routes/dashboard-resources';
import { apiKeysPage } from './api-keys-page';

/**
 * Creates a key and shows its value this once, on the answer to the form itself (never in an
 * address). A viewer asking for more than read:* scopes is refused by `createKey` (403).
 */
export const handler = dashboardPage(createApiKeyRoute, async (request) => {
  const { form } = request;
  const input = {
    name: form.get('name') ?? '',
    type: form.get('type') ?? '',
    scopes: form.getAll('scopes'),
    expires_in_days: form.get('expires_in_days') ?? '',
  };
  try {
    await request.takeEffectOnce();
    const created = await createKey(
      request.actor,
      {
        name: input.name,
        type: input.type,
        scopes: input.scopes,
        expiresInDays: input.expires_in_days === '' ? undefined : Number(input.expires_in_days),
      },
      pageDepsFromEnvironment(),
    );
    const { key, ...view } = created;
    return apiKeysPage(request, { created: { key, view } });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'validation_error') {
      const errors = formErrors(error, { name: 'Name', type: 'Type', scopes: 'Scopes', expires_in_days: 'Expires' });
      return apiKeysPage(request, { errors, fieldErrors: fieldErrors(error), form: input }, 422);
    }
    throw error;
  }
});
