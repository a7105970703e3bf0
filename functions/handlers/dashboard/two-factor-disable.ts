import { ApiError } from '../../core/errors';
import { disableTotp } from '../../core/users/manage-two-factor';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { disableTwoFactorRoute } from '../../routes/dashboard';
import { refusedTwoFactorForm } from './two-factor-view';
import { statusOf } from '../../http/error-status';

export const handler = pageHandler(disableTwoFactorRoute, 'signed_in', async ({ signedIn, form, from }) => {
  const { user, viewer, membership } = signedIn!;
  try {
    await disableTotp(
      { user, password: form.get('password') ?? '', accountId: membership?.account_id ?? null, origin: from },
      pageDepsFromEnvironment(),
    );
    return { redirect: '/dashboard/two-factor?notice=disabled' };
  } catch (error) {
    if (!(error instanceof ApiError) || statusOf(error) >= 500) throw error;
    return refusedTwoFactorForm(user, viewer, 'disable', error);
  }
});
