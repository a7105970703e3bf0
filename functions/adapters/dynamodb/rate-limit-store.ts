import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { gcraOf, microsecondsOf, type RateLimitSettings, type TokenBucketStore, type TokenLease, tokensAt } from '../../core/rate-limiter';
import type { TableRef } from './client';
import { entityTypes } from './keys';
import * as keys from './table-keys';

const conditionFailed = (error: unknown): error is { name: string; Item?: Record<string, AttributeValue> } =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ConditionalCheckFailedException';

/**
 * The rate-limit buckets in the table: one item per credential holding its GCRA state `tat`.
 * A lease is ONE conditional UpdateItem in the usual case, never a read first:
 *
 * - bucket in use (`tat` no more than `slack` before now): `tat = tat + n·interval`, if that keeps
 *   it within the bucket (`tat <= now + tolerance - n·interval`);
 * - bucket idle or new (`tat` more than `slack` before now, or absent): `tat = now + n·interval`.
 *
 * DynamoDB has no `max()`, so the in-use form also takes a `tat` slightly behind now: that credits
 * the bucket with at most `slack` of refill beyond its size (an eighth of the burst), and spares
 * instances that never see each other's leases a second write whenever `tat` dips behind now.
 * The in-use form is tried first whenever this instance leased before; a refused condition hands
 * back the item as it is (`ReturnValuesOnConditionCheckFailure`), from which the other form or a
 * smaller batch follows. The item expires (TTL) once its bucket would be full again.
 */
export const dynamoTokenBucketStore = (table: TableRef, settings: RateLimitSettings): TokenBucketStore & { writes: () => number } => {
  const gcra = gcraOf(settings);
  const slackUs = Math.floor(gcra.toleranceUs / 8);
  let writes = 0;

  /** Seconds since the epoch when the bucket is surely full again (the table's TTL). */
  const ttlOf = (tatUs: number): number => Math.ceil((tatUs + gcra.toleranceUs) / 1_000_000) + 60;

  const stateAfterRefusal = async (bucketId: string, error: { Item?: Record<string, AttributeValue> }): Promise<number | undefined> => {
    // The item handed back with the refusal is in DynamoDB's wire form (the document client leaves errors alone).
    const item =
      (error.Item && unmarshall(error.Item)) ??
      (await table.client.send(new GetCommand({ TableName: table.tableName, Key: keys.rateLimitBucket(bucketId), ConsistentRead: true })))
        .Item;
    return typeof item?.tat === 'number' ? item.tat : undefined;
  };

  const update = async (bucketId: string, input: { expression: string; condition: string; values: Record<string, unknown> }) => {
    writes += 1;
    const result = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.rateLimitBucket(bucketId),
        UpdateExpression: `${input.expression}, entity = :entity, #ttl = :ttl`,
        ConditionExpression: input.condition,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ...input.values, ':entity': entityTypes.rateLimitBucket },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return result.Attributes?.tat as number;
  };

  return {
    writes: () => writes,
    async lease(bucketId, wanted, nowMs, knownTat): Promise<TokenLease> {
      let tat = knownTat;
      // This instance's last sight of the bucket is old news when others share it: guess "in use"
      // whenever there was one; a refusal tells the truth, and then the other form follows.
      let guessInUse = knownTat !== undefined;
      // Three tries at most: the state read back after a refusal decides the next one.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const now = microsecondsOf(nowMs);
        const idle = !guessInUse && (tat === undefined || tat < now - slackUs);
        guessInUse = false;
        const granted = Math.min(wanted, tokensAt(gcra, tat, nowMs));
        if (granted < 1) return { granted: 0, tat };
        const spend = granted * gcra.intervalUs;
        try {
          const next = idle
            ? await update(bucketId, {
                expression: 'SET tat = :next',
                condition: 'attribute_not_exists(tat) OR tat < :floor',
                values: { ':next': now + spend, ':floor': now - slackUs, ':ttl': ttlOf(now + spend) },
              })
            : await update(bucketId, {
                expression: 'SET tat = tat + :spend',
                condition: 'tat BETWEEN :floor AND :limit',
                values: {
                  ':spend': spend,
                  ':floor': now - slackUs,
                  ':limit': now + gcra.toleranceUs - spend,
                  ':ttl': ttlOf(now + gcra.toleranceUs),
                },
              });
          return { granted, tat: next };
        } catch (error) {
          if (!conditionFailed(error)) throw error;
          tat = await stateAfterRefusal(bucketId, error);
        }
      }
      return { granted: 0, tat };
    },
  };
};
