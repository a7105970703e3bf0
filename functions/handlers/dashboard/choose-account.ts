import { notFound } from '../../core/errors';
import { selectAccount } from '../../core/sessions/manage-sessions';
import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { renewedSessionCookie } from '../../http/pages/page-handler';
import { chooseAccountRoute } from '../../routes/dashboard';

export const handler = pageHandler(chooseAccountRoute, 'signed_in', async (request) => {
  const { signedIn, form } = request;
  const deps = pageDepsFromEnvironment();
  const accountId = form.get('account_id') ?? '';
  const membership = accountId ? await deps.users.getMembership(signedIn!.user.id, accountId) : undefined;
  if (!membership) throw notFound('Account');
  const session = await selectAccount(signedIn!.session, accountId, deps);
  // The cookie names the account the session acts for (the pages read its membership by it).
  return {
    redirect: safeReturnPath(form.get('return_to')) ?? '/dashboard',
    cookies: renewedSessionCookie(request, session, deps.clock.now()),
  };
});
