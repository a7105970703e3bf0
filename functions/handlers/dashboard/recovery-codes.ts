import { regenerateRecoveryCodes } from '../../core/users/manage-two-factor';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { recoveryCodesRoute } from '../../routes/dashboard';
import { twoFactorSettingsPage } from './two-factor-view';

export const handler = pageHandler(recoveryCodesRoute, 'signed_in', async ({ signedIn, from }) => {
  const { user, viewer, membership } = signedIn!;
  const deps = pageDepsFromEnvironment();
  const codes = await regenerateRecoveryCodes({ user, accountId: membership?.account_id ?? null, origin: from }, deps);
  const updated = (await deps.users.get(user.id)) ?? user;
  return {
    page: await twoFactorSettingsPage(updated, viewer, { recoveryCodes: codes, notice: 'New recovery codes replace the old ones.' }),
  };
});
