import { SignInRefused, signIn } from '../../core/users/sign-in';
import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { type PageResult, sessionCookie } from '../../http/pages/page-handler';
import { applicationOf, destinationAfterSignIn, formTargetsFor } from '../../http/pages/sign-in-flow';
import { SignInPage } from '../../pages/views/sign-in';
import { signInRoute } from '../../routes/dashboard';

export const handler = pageHandler(signInRoute, 'public', async (request): Promise<PageResult> => {
  const deps = pageDepsFromEnvironment();
  const email = request.form.get('email') ?? '';
  const returnTo = safeReturnPath(request.form.get('return_to'));
  try {
    const result = await signIn({ email, password: request.form.get('password') ?? '', origin: request.from }, deps);
    const cookies = [sessionCookie(request, result.token, result.session, deps.clock.now())];
    if (result.kind === 'two_factor') {
      const next = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
      return { redirect: `/dashboard/sign-in/two-factor${next}`, cookies };
    }
    return { redirect: await destinationAfterSignIn(result.session, returnTo, deps), cookies };
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    return {
      page: SignInPage({
        csrfToken: request.csrfToken,
        email,
        error: error.message,
        returnTo,
        application: await applicationOf(returnTo, deps),
      }),
      status: error.reason === 'throttled' ? 429 : 401,
      headers: error.reason === 'throttled' ? { 'Retry-After': String(error.retryAfterSeconds) } : {},
      formTargets: await formTargetsFor(returnTo, deps),
    };
  }
});
