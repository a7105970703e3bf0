import type { Account } from '../../core/credentials/credential';
import type { Session, SignedInReads } from '../../core/sessions/session';
import type { Membership, User } from '../../core/users/user';
import { countOf, deploymentsInProgressCountKey, openCriticalFindingsCountKey, runningWorkflowsCountKey } from './attention-counts';
import { getItems } from './batch-get';
import type { TableRef } from './client';
import { failedWebhookCountKey, failedWebhookCountOf } from './failed-webhook-count';
import { withoutKeys } from './keys';
import * as keys from './table-keys';

/**
 * What every page reads first, in one strongly consistent BatchGetItem: the session (a session
 * ended a moment ago must not still open pages), its user, the membership it acts under and the
 * account's failed-webhook count in the mode shown, and the account; for Home, also the counters of
 * running workflows, open critical findings and deployments in progress.
 */
export const dynamoSignedInReads = (table: TableRef): SignedInReads => ({
  async read({ hash, userId, accountId, mode, attention }) {
    const tenant = accountId ? { accountId, mode } : undefined;
    const wanted = [
      keys.session(hash),
      keys.user(userId),
      ...(tenant ? [keys.membership(userId, tenant.accountId), failedWebhookCountKey(tenant), keys.account(tenant.accountId)] : []),
      ...(tenant && attention
        ? [runningWorkflowsCountKey(tenant), openCriticalFindingsCountKey(tenant), deploymentsInProgressCountKey(tenant)]
        : []),
    ];
    const [session, user, membership, failedCount, account, running, critical, deploying] = await getItems(table, wanted, {
      consistent: true,
    });
    return {
      ...(session ? { session: withoutKeys<Session>(session) } : {}),
      ...(user ? { user: withoutKeys<User>(user) } : {}),
      ...(membership ? { membership: withoutKeys<Membership>(membership) } : {}),
      ...(account ? { account: withoutKeys<Account>(account) } : {}),
      failedWebhooks: failedWebhookCountOf(failedCount),
      ...(tenant && attention
        ? {
            attention: {
              runningWorkflows: countOf(running),
              openCriticalFindings: countOf(critical),
              deploymentsInProgress: countOf(deploying),
            },
          }
        : {}),
    };
  },
});
