import { ApiError } from '../../core/errors';
import { enableTotp } from '../../core/users/manage-two-factor';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { enableTwoFactorRoute } from '../../routes/dashboard';
import { refusedTwoFactorForm, twoFactorSettingsPage } from './two-factor-view';
import { statusOf } from '../../http/error-status';

/**
 * Turns it on once a code proves the app holds the secret and the current password proves the
 * person is who the session says; the recovery codes are shown this once.
 */
export const handler = pageHandler(enableTwoFactorRoute, 'signed_in', async ({ signedIn, form, from }) => {
  const { user, viewer, membership } = signedIn!;
  const secret = form.get('secret') ?? '';
  try {
    const codes = await enableTotp(
      {
        user,
        secret,
        code: form.get('code') ?? '',
        password: form.get('password') ?? '',
        accountId: membership?.account_id ?? null,
        origin: from,
      },
      pageDepsFromEnvironment(),
    );
    const updated = (await pageDepsFromEnvironment().users.get(user.id)) ?? user;
    return { page: await twoFactorSettingsPage(updated, viewer, { recoveryCodes: codes, notice: 'Two-factor sign-in is on.' }) };
  } catch (error) {
    if (!(error instanceof ApiError) || statusOf(error) >= 500) throw error;
    return refusedTwoFactorForm(user, viewer, 'enable', error, { secret: /^[A-Z2-7]{32}$/.test(secret) ? secret : undefined });
  }
});
