import { openInvitationsOf } from '../../core/users/answer-invitation';
import { safeReturnPath } from '../../http/pages/origin';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { formTargetsFor } from '../../http/pages/sign-in-flow';
import { type AccountChoice, ChooseAccountPage } from '../../pages/views/choose-account';
import { accountsFormRoute } from '../../routes/dashboard';

export const handler = pageHandler(accountsFormRoute, 'signed_in', async ({ signedIn, query }) => {
  const deps = pageDepsFromEnvironment();
  const user = signedIn!.user;
  const accounts: AccountChoice[] = [];
  const [memberships, invitations] = await Promise.all([deps.users.membershipsOfUser(user.id), openInvitationsOf(user.id, deps)]);
  for (const membership of memberships) {
    const account = await deps.accounts.get(membership.account_id);
    if (account) accounts.push({ id: account.id, email: account.email, role: membership.role });
  }
  const returnTo = safeReturnPath(query.get('return_to'));
  // After an Accept (Post/Redirect/Get): said only of an account the person is a member of.
  const joined = accounts.find((account) => account.id === query.get('joined'));
  return {
    page: ChooseAccountPage({
      viewer: signedIn!.viewer,
      accounts,
      invitations,
      returnTo,
      notice: joined
        ? `You joined the account ${joined.email} (${joined.id}) as ${joined.role}. Choose it below to act for it.`
        : query.get('done') === 'declined'
          ? 'You declined the invitation; nothing else changed.'
          : undefined,
    }),
    formTargets: await formTargetsFor(returnTo, deps),
  };
});
