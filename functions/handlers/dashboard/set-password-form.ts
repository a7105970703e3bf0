import { findUsableLink } from '../../core/users/password-links';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { MessagePage } from '../../pages/views/message-page';
import { SetPasswordPage } from '../../pages/views/set-password';
import { setPasswordFormRoute } from '../../routes/dashboard';

/** Only shows the form: a link is used up by the POST, so a mail scanner's visit does not spend it. */
export const handler = pageHandler(setPasswordFormRoute, 'public', async ({ query, csrfToken }) => {
  const deps = pageDepsFromEnvironment();
  const token = query.get('token') ?? '';
  const usable = await findUsableLink(token, deps);
  if (!usable) {
    return {
      page: MessagePage({
        title: 'This link no longer works',
        children: 'It has expired or was used already. Ask for a new one on the sign-in page ("Forgot your password?").',
      }),
      status: 410,
    };
  }
  const { link, user } = usable;
  return { page: SetPasswordPage({ csrfToken, token, email: user.email, firstPassword: link.purpose === 'set_password' }) };
});
