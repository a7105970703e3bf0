import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Scan, ScanRepository } from '../../core/security/scan';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
import { pendingEventItems } from './event-repository';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdRangeOn,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  withEqualityFilters,
} from './list-page';
import { entityTypes, ownedRecord } from './keys';
import * as keys from './table-keys';
import { conditionFailedAt, revisionPut, type TransactItem, withConflictRetry } from './transactions';

/** One scan by id, alone: what `GET /v1/security/scans/{id}` reads. */
export const dynamoScanReader = ({ client, tableName }: TableRef): Pick<ScanRepository, 'get'> => ({
  async get(tenant, id) {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.scan(tenant, id), ConsistentRead: true }));
    return result.Item ? ownedRecord<Scan>(result.Item) : undefined;
  },
});

/** The scans of an account or project, alone: what `GET /v1/security/scans` reads. */
export const dynamoScanList = (table: TableRef): Pick<ScanRepository, 'list'> => ({
  async list(tenant, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const base = filters.project_id
      ? createdRangeOn(keys.scansOfProject(tenant, filters.project_id), 'gsi1', keys.scanSortKeyPrefix, 'scan', query)
      : createdRangeOn(keys.scans(tenant), null, keys.scanSortKeyPrefix, 'scan', query);
    const spec = withEqualityFilters(base, { status: filters.status });
    const total = filters.status || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, base.partition);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
      project_id: filters.project_id ?? null,
      status: filters.status ?? null,
    });
    return { ...page, items: page.items.map((item) => ownedRecord<Scan>(item)) };
  },
});

export const dynamoScanRepository = (table: TableRef, now: () => number = Date.now): ScanRepository => {
  const { client, tableName } = table;
  const itemOf = (tenant: Tenant, scan: Scan) => ({
    ...keys.scan(tenant, scan.id),
    ...keys.scanIndexes(tenant, scan.project_id, scan.id),
    entity: entityTypes.scan,
    account_id: tenant.accountId,
    mode: tenant.mode,
    ...scan,
  });
  return {
    async create(tenant, scan) {
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: keys.project(tenant, scan.project_id),
                    ConditionExpression: 'attribute_exists(pk)',
                  },
                },
                { Put: { TableName: tableName, Item: itemOf(tenant, scan), ConditionExpression: 'attribute_not_exists(pk)' } },
                counterUpdate(tableName, keys.scans(tenant), 1),
                counterUpdate(tableName, keys.scansOfProject(tenant, scan.project_id), 1),
              ],
            }),
          ),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0)) return false;
        throw error;
      }
    },

    ...dynamoScanReader(table),

    ...dynamoScanList(table),

    async save(tenant, previous, next, events) {
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                revisionPut(tableName, itemOf(tenant, next), previous.revision),
                ...(pendingEventItems(tableName, tenant, events, now()) as TransactItem[]),
              ],
            }),
          ),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0)) return false;
        throw error;
      }
    },
  };
};
