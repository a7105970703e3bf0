import { notFound } from '../../core/errors';
import { selectAccount } from '../../core/sessions/manage-sessions';
import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { chooseAccountRoute } from '../../routes/dashboard';

export const handler = pageHandler(chooseAccountRoute, 'signed_in', async ({ signedIn, form }) => {
  const deps = pageDepsFromEnvironment();
  const accountId = form.get('account_id') ?? '';
  const membership = accountId ? await deps.users.getMembership(signedIn!.user.id, accountId) : undefined;
  if (!membership) throw notFound('Account');
  await selectAccount(signedIn!.session, accountId, deps);
  return { redirect: safeReturnPath(form.get('return_to')) ?? '/dashboard' };
});
