import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DeletedWebhookDeliveries } from '../../core/webhooks/delivery';
import type { TableRef } from './client';
import * as keys from './table-keys';
import { conditionFailedAt, withConflictRetry } from './transactions';

/** A transaction names at most 100 items: the webhook's absence and up to 99 deletions. */
const deletionsPerTransaction = 99;

/**
 * A webhook's delivery partition (its deliveries and their counter), deleted a transaction at a
 * time, each with a check that the webhook is still absent. Safe beside anything else that runs:
 * a dispatcher's write to a delivery meanwhile conflicts and the transaction is tried again, a
 * delivery the fan-out adds meanwhile is found by the next read, and two removals at once delete
 * the same items harmlessly.
 */
export const dynamoDeletedWebhookDeliveries = ({ client, tableName }: TableRef): DeletedWebhookDeliveries => ({
  async removeAll(tenant, webhookId) {
    const partition = keys.deliveries(tenant, webhookId);
    const counterSortKey = keys.counter(partition).sk;
    let removed = 0;
    for (;;) {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': partition },
          ProjectionExpression: 'pk, sk',
          ConsistentRead: true,
          Limit: deletionsPerTransaction,
        }),
      );
      const found = page.Items ?? [];
      if (found.length === 0) return removed;
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: keys.webhook(tenant, webhookId),
                    ConditionExpression: 'attribute_not_exists(pk)',
                  },
                },
                ...found.map((item) => ({ Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk } } })),
              ],
            }),
          ),
        );
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'webhook_exists';
        throw error;
      }
      removed += found.filter((item) => item.sk !== counterSortKey).length;
    }
  },
});
