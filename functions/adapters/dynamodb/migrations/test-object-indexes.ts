import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../client';
import { entityTypes } from '../keys';
import * as keys from '../table-keys';
import { isConditionFailure } from '../transactions';
import { tenantOfKey } from '../tenant-of-key';

export interface BackfillReport {
  /** Suites and runs seen. */
  scanned: number;
  /** Of them, given the index keys `GET /v1/tests` lists by. */
  updated: number;
}

/**
 * One-off and idempotent: gives every test suite and run stored before `GET /v1/tests` existed the
 * index keys it lists by (gsi1: the tenant's, gsi2: the project's). Each update is conditional on
 * the keys being absent, so running it again, or beside new creates, changes nothing twice.
 */
export const backfillTestObjectIndexes = async (table: TableRef): Promise<BackfillReport> => {
  const { client, tableName } = table;
  const report: BackfillReport = { scanned: 0, updated: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity IN (:suite, :run)',
        ExpressionAttributeValues: { ':suite': entityTypes.testSuite, ':run': entityTypes.testRun },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      report.scanned += 1;
      if (item.gsi1pk !== undefined) continue;
      const tenant = tenantOfKey(String(item.pk));
      if (!tenant || typeof item.id !== 'string' || typeof item.project_id !== 'string') continue;
      const indexes = keys.testObjectIndexes(tenant, item.project_id, item.id);
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi1pk = :g1pk, gsi1sk = :g1sk, gsi2pk = :g2pk, gsi2sk = :g2sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk)',
            ExpressionAttributeValues: {
              ':g1pk': indexes.gsi1pk,
              ':g1sk': indexes.gsi1sk,
              ':g2pk': indexes.gsi2pk,
              ':g2sk': indexes.gsi2sk,
            },
          }),
        );
        report.updated += 1;
      } catch (error) {
        // Given its keys meanwhile (a second run, or a create): nothing to do.
        if (!isConditionFailure(error)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return report;
};
