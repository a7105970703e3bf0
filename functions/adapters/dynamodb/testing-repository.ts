import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import type { ListQuery } from '../../core/pagination';
import type { Tenant } from '../../core/tenancy';
import type { TestRepository, TestRun, TestSuite, TestWrites } from '../../core/testing/test-records';
import type { TableRef } from './client';
import { transactUnlessFirstConditionFails } from './conditional-transaction';
import { pendingEventItems } from './event-repository';
import {
  countRange,
  counterUpdate,
  counterValue,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
  withEqualityFilters,
} from './list-page';
import { entityTypes, idRangeEnd, ownedRecord } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectExistsCheck } from './project-guards';
import * as keys from './table-keys';
import { revisionPut, type TransactItem } from './transactions';

/** Suites and runs created in the query's date range, on gsi1 (the tenant's) or gsi2 (a project's), by ULID. */
const testObjectRange = (tenant: Tenant, query: ListQuery, projectId: string | undefined): RangeSpec => {
  const [index, partition] = projectId
    ? (['gsi2', keys.testObjectsOfProject(tenant, projectId)] as const)
    : (['gsi1', keys.testObjects(tenant)] as const);
  const low =
    keys.testObjectSortKeyPrefix + (query.createdFrom === undefined || query.createdFrom <= 0 ? '' : encodeTime(query.createdFrom, 10));
  const high = keys.testObjectSortKeyPrefix + (query.createdUntil === undefined ? '' : encodeTime(query.createdUntil - 1, 10)) + idRangeEnd;
  return {
    query: {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk AND ${index}sk BETWEEN :low AND :high`,
      ExpressionAttributeValues: { ':pk': partition, ':low': low, ':high': high },
    },
    keyAttributes: ['pk', 'sk', `${index}pk`, `${index}sk`],
    partition,
  };
};

/**
 * Suites and runs one at a time: what generating and running tests write and read. Those functions
 * carry neither the listing nor the recent queries of the dashboard.
 */
export const dynamoTestWrites = (table: TableRef, now: () => number = Date.now): TestWrites => {
  const { client, tableName } = table;
  const owner = (tenant: Tenant) => ({ account_id: tenant.accountId, mode: tenant.mode });
  const suiteItem = (tenant: Tenant, suite: TestSuite) => ({
    ...keys.testSuite(tenant, suite.id),
    ...keys.testObjectIndexes(tenant, suite.project_id, suite.id),
    entity: entityTypes.testSuite,
    ...owner(tenant),
    ...suite,
  });
  const runItem = (tenant: Tenant, run: TestRun) => ({
    ...keys.testRun(tenant, run.id),
    ...keys.testObjectIndexes(tenant, run.project_id, run.id),
    entity: entityTypes.testRun,
    ...owner(tenant),
    ...run,
  });
  const send = (items: TransactItem[]) => transactUnlessFirstConditionFails(client, items);

  return {
    createSuite: (tenant, suite) =>
      send([
        projectExistsCheck(tableName, tenant, suite.project_id),
        { Put: { TableName: tableName, Item: suiteItem(tenant, suite), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.testSuites(tenant), 1),
      ]),

    createRun: (tenant, run) =>
      send([
        projectExistsCheck(tableName, tenant, run.project_id),
        { Put: { TableName: tableName, Item: runItem(tenant, run), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.testRuns(tenant), 1),
        ...(run.suite_id
          ? [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.testSuite(tenant, run.suite_id),
                  UpdateExpression: 'SET latest_run_id = :run',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':run': run.id },
                },
              },
            ]
          : []),
      ]),

    getSuite: ownedRecordById<TestSuite>(table, keys.testSuite),

    getRun: ownedRecordById<TestRun>(table, keys.testRun),

    saveSuite: (tenant, previous, next, events) =>
      send([
        revisionPut(tableName, suiteItem(tenant, next), previous.revision),
        ...(pendingEventItems(tableName, tenant, events, now()) as TransactItem[]),
      ]),

    saveRun: (tenant, previous, next, events) =>
      send([
        revisionPut(tableName, runItem(tenant, next), previous.revision),
        ...(pendingEventItems(tableName, tenant, events, now()) as TransactItem[]),
      ]),
  };
};

export const dynamoTestRepository = (table: TableRef, now: () => number = Date.now): TestRepository => {
  const { client, tableName } = table;
  /** The newest items of a collection; its partition also holds the collection's counter, which this range leaves out. */
  const newestOf = async <T>(first: { pk: string; sk: string }, limit: number): Promise<T[]> => {
    const result = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
        ExpressionAttributeValues: { ':pk': first.pk, ':kind': first.sk },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => ownedRecord<T>(item));
  };
  return {
    ...dynamoTestWrites(table, now),

    async list(tenant, query, filters) {
      if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
      const spec = withEqualityFilters(testObjectRange(tenant, query, filters.project_id), {
        object: filters.object,
        status: filters.status,
      });
      const unfiltered = !filters.project_id && !filters.object && !filters.status && !isDateFiltered(query);
      // Unfiltered, the two collections' counters kept with every create; else a count of the range.
      const total = unfiltered
        ? (await counterValue(table, keys.testSuites(tenant))) + (await counterValue(table, keys.testRuns(tenant)))
        : await countRange(table, spec);
      const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
        project_id: filters.project_id ?? null,
        object: filters.object ?? null,
        status: filters.status ?? null,
      });
      return { ...page, items: page.items.map((item) => ownedRecord<TestSuite | TestRun>(item)) };
    },

    recentSuites: (tenant, limit) => newestOf<TestSuite>(keys.testSuite(tenant, ''), limit),
    recentRuns: (tenant, limit) => newestOf<TestRun>(keys.testRun(tenant, ''), limit),
  };
};
