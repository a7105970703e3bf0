import { completeSignIn, SignInRefused } from '../../core/users/sign-in';
import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { type PageResult, sessionCookie } from '../../http/pages/page-handler';
import { destinationAfterSignIn, formTargetsFor } from '../../http/pages/sign-in-flow';
import { TwoFactorChallengePage } from '../../pages/views/two-factor-challenge';
import { twoFactorRoute } from '../../routes/dashboard';

export const handler = pageHandler(twoFactorRoute, 'two_factor', async (request): Promise<PageResult> => {
  const deps = pageDepsFromEnvironment();
  const returnTo = safeReturnPath(request.form.get('return_to'));
  const session = request.signedIn?.session;
  if (!session) return { redirect: '/dashboard/sign-in' };
  try {
    const completed = await completeSignIn({ session, code: request.form.get('code') ?? '', origin: request.from }, deps);
    // A new session replaced the two-factor-stage one: its cookie replaces the old one, as at sign-in.
    return {
      redirect: await destinationAfterSignIn(completed.session, returnTo, deps),
      cookies: [sessionCookie(request, completed.token, completed.session, deps.clock.now())],
    };
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    return {
      page: TwoFactorChallengePage({ csrfToken: request.csrfToken, error: error.message, returnTo }),
      status: error.reason === 'throttled' ? 429 : 401,
      headers: error.reason === 'throttled' ? { 'Retry-After': String(error.retryAfterSeconds) } : {},
      formTargets: await formTargetsFor(returnTo, deps),
    };
  }
});
