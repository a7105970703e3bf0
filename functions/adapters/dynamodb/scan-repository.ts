import type { Scan, ScanRepository } from '../../core/security/scan';
import type { Tenant } from '../../core/tenancy';
import { listOfAccountOrProject } from './account-or-project-list';
import type { TableRef } from './client';
import { transactUnlessFirstConditionFails } from './conditional-transaction';
import { pendingEventItems } from './event-repository';
import { counterUpdate } from './list-page';
import { entityTypes } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectExistsCheck } from './project-guards';
import * as keys from './table-keys';
import { revisionPut, type TransactItem } from './transactions';

/** One scan by id, alone: what `GET /v1/security/scans/{id}` reads. */
export const dynamoScanReader = (table: TableRef): Pick<ScanRepository, 'get'> => ({
  get: ownedRecordById<Scan>(table, keys.scan),
});

/** The scans of an account or project, alone: what `GET /v1/security/scans` reads. */
export const dynamoScanList = (table: TableRef): Pick<ScanRepository, 'list'> => ({
  list: listOfAccountOrProject<Scan>(table, {
    ofAccount: keys.scans,
    ofProject: keys.scansOfProject,
    sortKeyPrefix: keys.scanSortKeyPrefix,
    idKind: 'scan',
  }),
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
    create: async (tenant, scan) =>
      transactUnlessFirstConditionFails(client, [
        projectExistsCheck(tableName, tenant, scan.project_id),
        { Put: { TableName: tableName, Item: itemOf(tenant, scan), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.scans(tenant), 1),
        counterUpdate(tableName, keys.scansOfProject(tenant, scan.project_id), 1),
      ]),

    ...dynamoScanReader(table),

    ...dynamoScanList(table),

    save: async (tenant, previous, next, events) =>
      transactUnlessFirstConditionFails(client, [
        revisionPut(tableName, itemOf(tenant, next), previous.revision),
        ...(pendingEventItems(tableName, tenant, events, now()) as TransactItem[]),
      ]),
  };
};
