import { keyToManage, revokeKey } from '../../../core/credentials/dashboard-keys';
import { confirmFirst, dashboardPage, isConfirmed } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { revokeApiKeyRoute } from '../../../routes/dashboard-resources';

export const handler = dashboardPage(revokeApiKeyRoute, async (request) => {
  const id = request.event.pathParameters?.id ?? '';
  // Refused before asking: nobody is asked to confirm what they may not do.
  if (!isConfirmed(request.form)) await keyToManage(request.actor, id, 'revoke', pageDepsFromEnvironment());
  const asked = confirmFirst(request, 'Revoke this key? Every request with it is refused from now on.', '/dashboard/developers/api-keys');
  if (asked) return asked;
  await revokeKey(request.actor, id, pageDepsFromEnvironment());
  return { redirect: '/dashboard/developers/api-keys?done=revoked' };
});
