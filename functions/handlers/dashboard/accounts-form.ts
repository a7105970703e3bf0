import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { formTargetsFor } from '../../http/pages/sign-in-flow';
import { type AccountChoice, ChooseAccountPage } from '../../pages/views/choose-account';
import { accountsFormRoute } from '../../routes/dashboard';

export const handler = pageHandler(accountsFormRoute, 'signed_in', async ({ signedIn, query }) => {
  const deps = pageDepsFromEnvironment();
  const user = signedIn!.user;
  const accounts: AccountChoice[] = [];
  for (const membership of await deps.users.membershipsOfUser(user.id)) {
    const account = await deps.accounts.get(membership.account_id);
    if (account) accounts.push({ id: account.id, email: account.email, role: membership.role });
  }
  const returnTo = safeReturnPath(query.get('return_to'));
  return {
    page: ChooseAccountPage({ viewer: signedIn!.viewer, accounts, returnTo }),
    formTargets: await formTargetsFor(returnTo, deps),
  };
});
