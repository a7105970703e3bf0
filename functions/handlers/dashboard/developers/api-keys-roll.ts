import { keyToManage, rollKey } from '../../../core/credentials/dashboard-keys';
import { confirmFirst, dashboardPage, isConfirmed } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { rollApiKeyRoute } from '../../../routes/dashboard-resources';
import { apiKeysPage } from './api-keys-page';

/** A new value with the same name and scopes, shown once; the old value ends after the chosen overlap. */
export const handler = dashboardPage(rollApiKeyRoute, async (request) => {
  const id = request.event.pathParameters?.id ?? '';
  // Refused before asking: nobody is asked to confirm what they may not do.
  if (!isConfirmed(request.form)) await keyToManage(request.actor, id, 'roll', pageDepsFromEnvironment());
  const asked = confirmFirst(
    request,
    'Roll this key? A new value replaces it; the old one stops working at the time you chose.',
    '/dashboard/developers/api-keys',
  );
  if (asked) return asked;
  await request.takeEffectOnce();
  const rolled = await rollKey(request.actor, id, Number(request.form.get('overlap_hours') ?? 'x'), pageDepsFromEnvironment());
  const { key, replaced, ...view } = rolled;
  return apiKeysPage(request, { created: { key, view, rolledFrom: replaced } });
});
