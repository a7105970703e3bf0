import { listKeys } from '../../../core/credentials/dashboard-keys';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import type { PageResult } from '../../../http/pages/page-handler';
import { ApiKeysPage, type ApiKeysPageProps } from '../../../pages/views/dashboard/developers/api-keys';
import { memberEmails } from '../settings/member-emails';

/** The API keys page with the account's keys as they are now, and whatever the action adds. */
export const apiKeysPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'actor'>,
  extra: Omit<ApiKeysPageProps, 'shell' | 'userId' | 'keys' | 'nowMs' | 'creators'> = {},
  status = 200,
): Promise<PageResult> => {
  const deps = pageDepsFromEnvironment();
  const keys = await listKeys(request.tenant.accountId, deps);
  // Who made each key, by e-mail (also once they have left the account); keys the system made have nobody.
  const creators = await memberEmails(
    keys.flatMap((k) => (k.created_by_user_id ? [k.created_by_user_id] : [])),
    deps,
  );
  return {
    status,
    page: ApiKeysPage({ shell: request.shell, userId: request.actor.userId, keys, creators, nowMs: deps.clock.now(), ...extra }),
  };
};
