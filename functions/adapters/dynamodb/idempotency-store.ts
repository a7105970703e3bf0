import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { idempotencyLockMs, idempotencyWindowMs, type IdempotencyRecord, type IdempotencyStore } from '../../core/idempotency';
import type { TableRef } from './client';
import { entityTypes } from './keys';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

const toRecord = (item: Record<string, unknown>): IdempotencyRecord => ({
  fingerprint: String(item.fingerprint),
  state: item.state === 'completed' ? 'completed' : 'in_progress',
  response: item.response as IdempotencyRecord['response'],
});

export const dynamoIdempotencyStore = ({ client, tableName }: TableRef): IdempotencyStore => ({
  async claim(tenant, key, fingerprint, nowMs) {
    const itemKey = keys.idempotency(tenant, key);
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...itemKey,
            entity: entityTypes.idempotency,
            fingerprint,
            state: 'in_progress',
            locked_until: nowMs + idempotencyLockMs,
            expires_at_ms: nowMs + idempotencyWindowMs,
            ttl: Math.ceil((nowMs + idempotencyWindowMs) / 1000),
          },
          // Free, expired (TTL deletion lags), or abandoned by a crashed attempt of the same request.
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at_ms < :now OR (#state = :inProgress AND locked_until < :now AND fingerprint = :fingerprint)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowMs, ':inProgress': 'in_progress', ':fingerprint': fingerprint },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'claimed';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The document client leaves this item in DynamoDB's wire form (aws-sdk-js-v3 #6723).
      const old = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
      if (old && 'fingerprint' in old) return toRecord(unmarshall(old));
      const current = await client.send(new GetCommand({ TableName: tableName, Key: itemKey, ConsistentRead: true }));
      if (!current.Item) return this.claim(tenant, key, fingerprint, nowMs);
      return toRecord(current.Item);
    }
  },

  async complete(tenant, key, response, nowMs) {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.idempotency(tenant, key),
        UpdateExpression: 'SET #state = :completed, #response = :response, expires_at_ms = :expires, #ttl = :ttl',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':response': response,
          ':expires': nowMs + idempotencyWindowMs,
          ':ttl': Math.ceil((nowMs + idempotencyWindowMs) / 1000),
        },
      }),
    );
  },

  async release(tenant, key) {
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.idempotency(tenant, key) }));
  },
});
