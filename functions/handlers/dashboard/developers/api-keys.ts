import { dashboardPage } from '../../../http/pages/dashboard-page';
import { apiKeysRoute } from '../../../routes/dashboard-resources';
import { apiKeysPage } from './api-keys-page';

const notices: Record<string, string> = {
  revoked: 'The key is revoked: requests with it are refused from now on.',
};

export const handler = dashboardPage(apiKeysRoute, async (request) =>
  apiKeysPage(request, { notice: notices[request.query.get('done') ?? ''] }),
);
