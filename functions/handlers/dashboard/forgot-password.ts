import { mailerFromEnvironment } from '../../adapters/runtime/mailer';
import { requestPasswordReset } from '../../core/users/password-links';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { forgotPasswordRoute } from '../../routes/dashboard';

/**
 * The same answer whether or not a user has the address, on the page the answer redirects to: a
 * reload of it shows the answer again and sends no second e-mail.
 */
export const handler = pageHandler(forgotPasswordRoute, 'public', async ({ form, origin }) => {
  await requestPasswordReset({ email: form.get('email') ?? '', origin }, { ...pageDepsFromEnvironment(), mailer: mailerFromEnvironment() });
  return { redirect: '/dashboard/forgot-password?sent=1' };
});
