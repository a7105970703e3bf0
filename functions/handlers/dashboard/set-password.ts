import { ApiError } from '../../core/errors';
import { findUsableLink, LinkUnusable, setPasswordWithLink } from '../../core/users/password-links';
import { signInAfterPasswordSet } from '../../core/users/sign-in';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { sessionCookie } from '../../http/pages/page-handler';
import { destinationAfterSignIn } from '../../http/pages/sign-in-flow';
import { MessagePage } from '../../pages/views/message-page';
import { SetPasswordPage } from '../../pages/views/set-password';
import { setPasswordRoute } from '../../routes/dashboard';

const linkGone = () => ({
  page: MessagePage({
    title: 'This link no longer works',
    children: 'It has expired or was used already. Ask for a new one on the sign-in page ("Forgot your password?").',
  }),
  status: 410,
});

/**
 * Sets the password and uses up the link. A person without two-factor sign-in is signed in at
 * once; one with it signs in again, so the link alone never passes the second factor.
 */
export const handler = pageHandler(setPasswordRoute, 'public', async (request) => {
  const deps = pageDepsFromEnvironment();
  const token = request.form.get('token') ?? '';
  try {
    const { user } = await setPasswordWithLink({ token, password: request.form.get('password') ?? '', origin: request.from }, deps);
    if (user.totp_enabled_at) return { redirect: '/dashboard/sign-in?notice=password_set', cookies: [] };
    const result = await signInAfterPasswordSet(user, request.from, deps);
    return {
      redirect: await destinationAfterSignIn(result.session, undefined, deps),
      cookies: [sessionCookie(request, result.token, result.session, deps.clock.now())],
    };
  } catch (error) {
    if (error instanceof LinkUnusable) return linkGone();
    if (!(error instanceof ApiError) || error.code !== 'validation_error') throw error;
    const usable = await findUsableLink(token, deps);
    if (!usable) return linkGone();
    const { link, user } = usable;
    return {
      page: SetPasswordPage({
        csrfToken: request.csrfToken,
        token,
        email: user.email,
        firstPassword: link.purpose === 'set_password',
        error: `The password ${(error.details as { issue?: string } | undefined)?.issue ?? 'is not accepted'}.`,
      }),
      status: 422,
    };
  }
});
