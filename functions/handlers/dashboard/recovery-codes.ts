import { ApiError } from '../../core/errors';
import { regenerateRecoveryCodes } from '../../core/users/manage-two-factor';
import { statusOf } from '../../http/error-status';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { recoveryCodesRoute } from '../../routes/dashboard';
import { refusedTwoFactorForm, twoFactorSettingsPage } from './two-factor-view';

export const handler = pageHandler(recoveryCodesRoute, 'signed_in', async ({ signedIn, form, from }) => {
  const { user, viewer, membership } = signedIn!;
  const deps = pageDepsFromEnvironment();
  try {
    const codes = await regenerateRecoveryCodes(
      { user, password: form.get('password') ?? '', accountId: membership?.account_id ?? null, origin: from },
      deps,
    );
    const updated = (await deps.users.get(user.id)) ?? user;
    return {
      page: await twoFactorSettingsPage(updated, viewer, { recoveryCodes: codes, notice: 'New recovery codes replace the old ones.' }),
    };
  } catch (error) {
    if (!(error instanceof ApiError) || statusOf(error) >= 500) throw error;
    return refusedTwoFactorForm(user, viewer, 'recovery_codes', error);
  }
});
