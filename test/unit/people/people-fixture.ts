import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import { createUser } from '../../../functions/core/users/manage-users';
import { sendRequestedPasswordReset } from '../../../functions/core/users/password-reset-requests';
import { inMemoryPeople } from '../fakes/people';

/** An account with an admin who has a password, on in-memory stores. */
export const peopleWithAdmin = async (password = 'correct horse battery') => {
  const people = inMemoryPeople();
  const account = await createAccount({ email: 'owner@acme.test' }, { ...people });
  const admin = await createUser({ email: 'Alice@Acme.test', accountId: account.id, role: 'admin', password }, people);
  return { ...people, account, admin: admin.user, password };
};

export const from = { ip: '198.51.100.7', userAgent: 'unit-test browser' };

/** What the table's stream does with the reset requests recorded so far: hands each to its function once, in order. */
export const deliverResetRequests = async (env: Awaited<ReturnType<typeof peopleWithAdmin>>) => {
  for (const request of env.resetRequests.inserted.splice(0)) await sendRequestedPasswordReset(request, env);
};
