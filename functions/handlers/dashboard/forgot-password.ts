import { mailerFromEnvironment } from '../../adapters/runtime/mailer';
import { requestPasswordReset } from '../../core/users/password-links';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { ForgotPasswordPage } from '../../pages/views/forgot-password';
import { forgotPasswordRoute } from '../../routes/dashboard';

/** The same answer whether or not a user has the address. */
export const handler = pageHandler(forgotPasswordRoute, 'public', async ({ form, origin, csrfToken }) => {
  await requestPasswordReset({ email: form.get('email') ?? '', origin }, { ...pageDepsFromEnvironment(), mailer: mailerFromEnvironment() });
  return { page: ForgotPasswordPage({ csrfToken, sent: true }) };
});
