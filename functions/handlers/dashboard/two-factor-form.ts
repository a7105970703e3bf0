import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { formTargetsFor } from '../../http/pages/sign-in-flow';
import { TwoFactorChallengePage } from '../../pages/views/two-factor-challenge';
import { twoFactorFormRoute } from '../../routes/dashboard';

export const handler = pageHandler(twoFactorFormRoute, 'two_factor', async ({ query, csrfToken }) => {
  const returnTo = safeReturnPath(query.get('return_to'));
  return { page: TwoFactorChallengePage({ csrfToken, returnTo }), formTargets: await formTargetsFor(returnTo, pageDepsFromEnvironment()) };
});
