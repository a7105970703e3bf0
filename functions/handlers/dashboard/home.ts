import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { HomePage } from '../../pages/views/home';
import { dashboardHomeRoute } from '../../routes/dashboard';

export const handler = pageHandler(dashboardHomeRoute, 'account', async ({ signedIn }) => {
  const { viewer, membership, user } = signedIn!;
  const account = await pageDepsFromEnvironment().accounts.get(membership!.account_id);
  return {
    page: HomePage({ viewer, role: membership!.role, accountEmail: account?.email ?? '', twoFactor: user.totp_enabled_at !== null }),
  };
});
