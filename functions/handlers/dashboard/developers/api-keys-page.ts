import { listKeys } from '../../../core/credentials/dashboard-keys';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { ApiKeysPage, type ApiKeysPageProps } from '../../../pages/views/dashboard/developers/api-keys';

/** The API keys page with the account's keys as they are now, and whatever the action adds. */
export const apiKeysPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant'>,
  extra: Omit<ApiKeysPageProps, 'shell' | 'keys' | 'nowMs'> = {},
  status = 200,
): Promise<PageResult> => {
  const deps = pageDepsFromEnvironment();
  return {
    status,
    page: ApiKeysPage({ shell: request.shell, keys: await listKeys(request.tenant.accountId, deps), nowMs: deps.clock.now(), ...extra }),
  };
};
