import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { applicationOf, destinationAfterSignIn, formTargetsFor } from '../../http/pages/sign-in-flow';
import { SignInPage } from '../../pages/views/sign-in';
import { signInFormRoute } from '../../routes/dashboard';

/** Notices other pages may ask the sign-in page to show (never text from the address itself). */
const notices: Record<string, string> = {
  signed_out: 'You are signed out.',
  password_set: 'Your password is saved. Sign in with it.',
};

export const handler = pageHandler(signInFormRoute, 'public', async ({ query, csrfToken, signedIn }) => {
  const deps = pageDepsFromEnvironment();
  const returnTo = safeReturnPath(query.get('return_to'));
  if (signedIn?.session.stage === 'active') return { redirect: await destinationAfterSignIn(signedIn.session, returnTo, deps) };
  return {
    page: SignInPage({ csrfToken, returnTo, notice: notices[query.get('notice') ?? ''], application: await applicationOf(returnTo, deps) }),
    formTargets: await formTargetsFor(returnTo, deps),
  };
});
