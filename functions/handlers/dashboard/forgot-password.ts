import { requestPasswordReset } from '../../core/users/password-reset-requests';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { forgotPasswordRoute } from '../../routes/dashboard';

/**
 * The same answer whether or not a user has the address, after the same work (the e-mail goes
 * from the table's stream, `workers/password-reset-emails`), on the page the answer redirects to:
 * a reload of it shows the answer again and sends no second e-mail.
 */
export const handler = pageHandler(forgotPasswordRoute, 'public', async ({ form, origin }) => {
  await requestPasswordReset({ email: form.get('email') ?? '', origin }, pageDepsFromEnvironment());
  return { redirect: '/dashboard/forgot-password?sent=1' };
});
