import type { Account } from '../../core/credentials/credential';
import type { Session, SignedInReads } from '../../core/sessions/session';
import type { Membership, User } from '../../core/users/user';
import { getItems } from './batch-get';
import type { TableRef } from './client';
import { failedWebhookCountKey, failedWebhookCountOf } from './failed-webhook-count';
import { withoutKeys } from './keys';
import * as keys from './table-keys';

/**
 * What every page reads first, in one strongly consistent BatchGetItem: the session (a session
 * ended a moment ago must not still open pages), its user, the membership it acts under and the
 * account's failed-webhook count in the mode shown, and the account.
 */
export const dynamoSignedInReads = (table: TableRef): SignedInReads => ({
  async read({ hash, userId, accountId, mode }) {
    const wanted = [
      keys.session(hash),
      keys.user(userId),
      ...(accountId ? [keys.membership(userId, accountId), failedWebhookCountKey({ accountId, mode }), keys.account(accountId)] : []),
    ];
    const [session, user, membership, failedCount, account] = await getItems(table, wanted, { consistent: true });
    return {
      ...(session ? { session: withoutKeys<Session>(session) } : {}),
      ...(user ? { user: withoutKeys<User>(user) } : {}),
      ...(membership ? { membership: withoutKeys<Membership>(membership) } : {}),
      ...(account ? { account: withoutKeys<Account>(account) } : {}),
      failedWebhooks: failedWebhookCountOf(failedCount),
    };
  },
});
