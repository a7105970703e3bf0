import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type AuditLog, type AuditRecord, auditRetentionDays } from '../../core/audit/audit';
import type { TableRef } from './client';
import { entityTypes, ttlOf, withoutKeys } from './keys';
import * as keys from './table-keys';
import type { TransactItem } from './transactions';

export const auditItem = (record: AuditRecord): Record<string, unknown> => ({
  ...keys.auditRecord(record.account_id, record.id),
  entity: entityTypes.auditRecord,
  ttl: ttlOf(record.created_at, auditRetentionDays * 86_400_000),
  ...record,
});

/** The audit record as one item of a transaction: written with the change it records, or not at all. */
export const auditPut = (tableName: string, record: AuditRecord): TransactItem => ({
  Put: { TableName: tableName, Item: auditItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
});

export const dynamoAuditLog = ({ client, tableName }: TableRef): AuditLog => ({
  async record(record) {
    await client.send(new PutCommand({ TableName: tableName, Item: auditItem(record) }));
  },

  async list(accountId, limit) {
    const result = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.auditRecords(accountId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => withoutKeys<AuditRecord>(item));
  },
});
