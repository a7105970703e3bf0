import type { UserRepository } from '../../../core/users/user';

/** The e-mails of these users, to name people instead of ids on a page. */
export const memberEmails = async (userIds: Iterable<string>, deps: { users: UserRepository }): Promise<Map<string, string>> => {
  const emails = new Map<string, string>();
  for (const id of new Set(userIds)) {
    const user = await deps.users.get(id);
    if (user) emails.set(id, user.email);
  }
  return emails;
};
