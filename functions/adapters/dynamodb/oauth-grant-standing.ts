import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OAuthClient } from '../../core/oauth/client';
import type { Grant } from '../../core/oauth/grant';
import type { GrantStandingReader } from '../../core/oauth/grant-standing';
import type { Membership } from '../../core/users/user';
import { getItems } from './batch-get';
import type { TableRef } from './client';
import { withoutKeys } from './keys';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

/**
 * The part of the grant store every API function needs to judge an OAuth access token (and the
 * owner of a personal access token), apart from
 * the rest (codes, refresh tokens, revocation) that only the `/oauth` functions use.
 */
export const dynamoGrantStandingReader = ({ client, tableName }: TableRef): GrantStandingReader => ({
  async standing({ grantId, accountId, userId, clientId }) {
    // Eventually consistent, like the credential itself: one round trip of three half-unit reads.
    const wanted = [keys.oauthGrant(grantId), keys.membership(userId, accountId), keys.oauthClient(clientId)];
    const [grant, membership, oauthClient] = await getItems({ client, tableName }, wanted);
    return {
      grant: grant ? withoutKeys<Grant>(grant) : undefined,
      membership: membership ? withoutKeys<Membership>(membership) : undefined,
      client: oauthClient ? withoutKeys<OAuthClient>(oauthClient) : undefined,
    };
  },

  async membership({ accountId, userId }) {
    // A personal access token's owner: the same eventually consistent read as the granting person's above.
    const [membership] = await getItems({ client, tableName }, [keys.membership(userId, accountId)]);
    return membership ? withoutKeys<Membership>(membership) : undefined;
  },

  async touchLastUsed(grantId, at, unlessAfter) {
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.oauthGrant(grantId),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND (last_used_at = :null OR last_used_at < :unlessAfter)',
          ExpressionAttributeValues: { ':at': at, ':unlessAfter': unlessAfter, ':null': null },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
});
