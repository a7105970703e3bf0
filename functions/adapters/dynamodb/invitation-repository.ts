import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Invitation, InvitationRepository } from '../../core/users/invitation';
import type { Membership } from '../../core/users/user';
import { auditPut } from './audit-log';
import type { TableRef } from './client';
import { entityTypes, ttlOf, withoutKeys } from './keys';
import { allInIndexPartition, queryAll } from './query-all';
import * as keys from './table-keys';
import { conditionFailedAt, type TransactItem, withConflictRetry } from './transactions';
import { membershipItem } from './user-repository';

/** Kept this long past its expiry, so that a late link still says what became of it; then TTL deletes it. */
const keptAfterExpiryMs = 30 * 86_400_000;

const invitationItem = (invitation: Invitation): Record<string, unknown> => ({
  ...keys.invitation(invitation.user_id, invitation.account_id),
  ...keys.invitationIndexes(invitation.account_id, invitation.user_id),
  entity: entityTypes.invitation,
  ttl: ttlOf(invitation.expires_at, keptAfterExpiryMs),
  ...invitation,
});

/** The id's pointer to its person and account; it outlives a replacement, whose item then has another id. */
const pointerItem = (invitation: Invitation): Record<string, unknown> => ({
  ...keys.invitationPointer(invitation.id),
  entity: entityTypes.invitationPointer,
  ttl: ttlOf(invitation.expires_at, keptAfterExpiryMs),
  user_id: invitation.user_id,
  account_id: invitation.account_id,
});

const byCreation = (a: Invitation, b: Invitation): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Still the same invitation (not replaced by a newer one to the same account) and still pending. */
const pendingCondition = '#id = :id AND #status = :pending';

export const dynamoInvitationRepository = ({ client, tableName }: TableRef): InvitationRepository => {
  const table = { client, tableName };
  /** Moves a pending invitation on, with `extra` in the same transaction: the index of the item whose condition failed, if any. */
  const answer = async (
    invitation: Invitation,
    to: { status: Invitation['status']; now: string; unexpired: boolean },
    extra: TransactItem[],
  ): Promise<number | undefined> => {
    try {
      await withConflictRetry(() =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.invitation(invitation.user_id, invitation.account_id),
                  UpdateExpression: 'SET #status = :status, answered_at = :now',
                  ConditionExpression: to.unexpired ? `${pendingCondition} AND expires_at > :now` : pendingCondition,
                  ExpressionAttributeNames: { '#id': 'id', '#status': 'status' },
                  ExpressionAttributeValues: { ':id': invitation.id, ':pending': 'pending', ':status': to.status, ':now': to.now },
                },
              },
              ...extra,
            ],
          }),
        ),
      );
      return undefined;
    } catch (error) {
      const failed = [0, ...extra.map((_item, index) => index + 1)].find((index) => conditionFailedAt(error, index));
      if (failed !== undefined) return failed;
      throw error;
    }
  };

  return {
    async create(invitation, audit, now) {
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: keys.membership(invitation.user_id, invitation.account_id),
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                },
                {
                  // One open invitation per person and account; an answered or expired one is replaced.
                  Put: {
                    TableName: tableName,
                    Item: invitationItem(invitation),
                    ConditionExpression: 'attribute_not_exists(pk) OR #status <> :pending OR expires_at <= :now',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':pending': 'pending', ':now': now },
                  },
                },
                { Put: { TableName: tableName, Item: pointerItem(invitation), ConditionExpression: 'attribute_not_exists(pk)' } },
                auditPut(tableName, audit),
              ],
            }),
          ),
        );
        return 'created';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'member';
        if (conditionFailedAt(error, 1)) return 'pending';
        throw error;
      }
    },

    async get(id) {
      const read = (Key: Record<string, string>) => client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }));
      const pointer = (await read(keys.invitationPointer(id))).Item as { user_id: string; account_id: string } | undefined;
      if (!pointer) return undefined;
      const item = (await read(keys.invitation(pointer.user_id, pointer.account_id))).Item;
      // A newer invitation to the same account replaced this one: its link finds nothing.
      return item?.id === id ? withoutKeys<Invitation>(item) : undefined;
    },

    async ofAccount(accountId) {
      const items = await allInIndexPartition(table, 'gsi1', keys.invitationsOfAccount(accountId));
      return items.map((item) => withoutKeys<Invitation>(item)).sort(byCreation);
    },

    async ofUser(userId) {
      const items = await queryAll(table, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.invitationSortKeyPrefix },
        ConsistentRead: true,
      });
      return items.map((item) => withoutKeys<Invitation>(item)).sort(byCreation);
    },

    async accept(invitation, membership: Membership, now, audit) {
      const failed = await answer(invitation, { status: 'accepted', now, unexpired: true }, [
        { Put: { TableName: tableName, Item: membershipItem(membership), ConditionExpression: 'attribute_not_exists(pk)' } },
        auditPut(tableName, audit),
      ]);
      return failed === undefined ? 'accepted' : failed === 1 ? 'member' : 'closed';
    },

    async close(invitation, status, now, audit) {
      // Declining needs it unexpired (there is nothing left to decline); an admin cancels an expired one too.
      const failed = await answer(invitation, { status, now, unexpired: status === 'declined' }, [auditPut(tableName, audit)]);
      return failed === undefined;
    },
  };
};
