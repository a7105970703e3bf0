import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Credential, CredentialLookup } from '../../core/credentials/credential';
import type { TableRef } from './client';
import { withoutKeys } from './keys';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

/** A stored credential item as the port's record; an item written before creators were recorded has none (null). */
export const credentialOf = (item: Record<string, unknown>): Credential => {
  const credential = withoutKeys<Credential>(item);
  return { ...credential, created_by_user_id: credential.created_by_user_id ?? null };
};

/**
 * The two calls authentication makes, apart from the rest of the credential repository (create,
 * list, revoke, roll): every API function carries these alone.
 */
export const dynamoCredentialLookup = ({ client, tableName }: TableRef): CredentialLookup => ({
  async findByHash(hash) {
    // Eventually consistent: half a read unit, so a whole GET stays within one unit (see README).
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.credential(hash) }));
    return result.Item ? credentialOf(result.Item) : undefined;
  },

  async touchLastUsed(hash, at, unlessAfter) {
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.credential(hash),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :null OR last_used_at < :unlessAfter)',
          ExpressionAttributeValues: { ':at': at, ':unlessAfter': unlessAfter, ':null': null },
        }),
      );
    } catch (error) {
      // Another request recorded the use first.
      if (!isConditionFailure(error)) throw error;
    }
  },
});
