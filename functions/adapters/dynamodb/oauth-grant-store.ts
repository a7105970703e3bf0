import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Credential } from '../../core/credentials/credential';
import type { AuthorizationCode, Consent, Grant, IssuedTokens, IssueOutcome, OAuthGrantStore, RefreshToken } from '../../core/oauth/grant';
import { auditPut } from './audit-log';
import type { TableRef } from './client';
import { entityTypes, ttlOf, withoutKeys } from './keys';
import { allInIndexPartition } from './query-all';
import * as keys from './table-keys';
import { dynamoGrantStandingReader } from './oauth-grant-standing';
import { conditionFailedAt, type TransactItem } from './transactions';

const day = 86_400_000;

/** An access token is a credential item (found by its hash like every key), kept a day past its expiry. */
const accessTokenItem = (access: Credential): Record<string, unknown> => ({
  ...keys.credential(access.hash),
  entity: entityTypes.credential,
  ttl: ttlOf(access.expires_at as string, day),
  ...access,
});

const refreshTokenItem = (refresh: RefreshToken): Record<string, unknown> => ({
  ...keys.refreshToken(refresh.hash),
  entity: entityTypes.refreshToken,
  // Kept past its expiry for as long as its grant may live, so a late reuse is still recognised.
  ttl: ttlOf(refresh.expires_at, 30 * day),
  ...refresh,
});

const grantItem = (grant: Grant): Record<string, unknown> => ({
  ...keys.oauthGrant(grant.id),
  ...keys.oauthGrantIndexes(grant.account_id, grant.id),
  entity: entityTypes.oauthGrant,
  ...grant,
});

/** The grant still gives tokens: not revoked, not past its year. */
const liveGrantCheck = (tableName: string, grantId: string, now: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.oauthGrant(grantId),
    ConditionExpression: 'attribute_exists(pk) AND revoked_at = :null AND expires_at > :now',
    ExpressionAttributeValues: { ':null': null, ':now': now },
  },
});

const newTokenPuts = (tableName: string, tokens: IssuedTokens): TransactItem[] => [
  { Put: { TableName: tableName, Item: accessTokenItem(tokens.access), ConditionExpression: 'attribute_not_exists(pk)' } },
  { Put: { TableName: tableName, Item: refreshTokenItem(tokens.refresh), ConditionExpression: 'attribute_not_exists(pk)' } },
];

export const dynamoOAuthGrantStore = ({ client, tableName }: TableRef): OAuthGrantStore => {
  const getGrant = async (id: string): Promise<Grant | undefined> => {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.oauthGrant(id), ConsistentRead: true }));
    return result.Item ? withoutKeys<Grant>(result.Item) : undefined;
  };

  /** Uses up a code or refresh token and stores its successors, or tells why not. */
  const issue = async (useUp: TransactItem, grantId: string, tokens: IssuedTokens, now: string): Promise<IssueOutcome> => {
    try {
      await client.send(
        new TransactWriteCommand({ TransactItems: [useUp, liveGrantCheck(tableName, grantId, now), ...newTokenPuts(tableName, tokens)] }),
      );
      return 'issued';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'used';
      if (conditionFailedAt(error, 1)) return 'grant_revoked';
      throw error;
    }
  };

  const markUsed = (key: Record<string, string>, now: string): TransactItem => ({
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET used_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND used_at = :null',
      ExpressionAttributeValues: { ':now': now, ':null': null },
    },
  });

  return {
    async createGrant(grant, code, consent, audit) {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: grantItem(grant), ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...keys.authorizationCode(code.hash),
                  entity: entityTypes.authorizationCode,
                  ttl: ttlOf(code.expires_at, day),
                  ...code,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...keys.oauthConsent(consent.user_id, consent.account_id, consent.client_id),
                  entity: entityTypes.oauthConsent,
                  ...consent,
                },
              },
            },
            auditPut(tableName, audit),
          ],
        }),
      );
    },

    getGrant,

    async findCode(hash) {
      const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.authorizationCode(hash), ConsistentRead: true }));
      return result.Item ? withoutKeys<AuthorizationCode>(result.Item) : undefined;
    },

    async findRefreshToken(hash) {
      const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.refreshToken(hash), ConsistentRead: true }));
      return result.Item ? withoutKeys<RefreshToken>(result.Item) : undefined;
    },

    async getConsent(accountId, userId, clientId) {
      const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.oauthConsent(userId, accountId, clientId) }));
      return result.Item ? withoutKeys<Consent>(result.Item) : undefined;
    },

    exchangeCode: (codeHash, tokens, now) =>
      issue(markUsed(keys.authorizationCode(codeHash), now), tokens.access.grant?.id as string, tokens, now),

    async spendCode(codeHash, now) {
      try {
        await client.send(new TransactWriteCommand({ TransactItems: [markUsed(keys.authorizationCode(codeHash), now)] }));
      } catch (error) {
        if (!conditionFailedAt(error, 0)) throw error;
      }
    },

    rotateRefreshToken: (refreshHash, tokens, now) =>
      issue(markUsed(keys.refreshToken(refreshHash), now), tokens.refresh.grant_id, tokens, now),

    async revokeGrant(grantId, reason, at, audit) {
      const grant = await getGrant(grantId);
      if (!grant || grant.revoked_at !== null) return false;
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.oauthGrant(grantId),
                  UpdateExpression: 'SET revoked_at = :at, revoked_reason = :reason',
                  ConditionExpression: 'attribute_exists(pk) AND revoked_at = :null',
                  ExpressionAttributeValues: { ':at': at, ':reason': reason, ':null': null },
                },
              },
              // A revoked authorization is asked for again, as GitHub does: the remembered consent goes with it.
              { Delete: { TableName: tableName, Key: keys.oauthConsent(grant.user_id, grant.account_id, grant.client_id) } },
              auditPut(tableName, audit),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0)) return false;
        throw error;
      }
    },

    async revokeAccessToken(hash, at, audit) {
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.credential(hash),
                  UpdateExpression: 'SET revoked_at = :at',
                  ConditionExpression: 'attribute_exists(pk) AND revoked_at = :null',
                  ExpressionAttributeValues: { ':at': at, ':null': null },
                },
              },
              auditPut(tableName, audit),
            ],
          }),
        );
      } catch (error) {
        if (!conditionFailedAt(error, 0)) throw error;
      }
    },

    ...dynamoGrantStandingReader({ client, tableName }),

    async grantsOfAccount(accountId) {
      const items = await allInIndexPartition({ client, tableName }, 'gsi1', keys.oauthGrantsOfAccount(accountId), 'newestFirst');
      return items.map((item) => withoutKeys<Grant>(item));
    },
  };
};
