import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { backfillTestObjectIndexes } from '../../functions/adapters/dynamodb/migrations/test-object-indexes';
import { dynamoTestRepository } from '../../functions/adapters/dynamodb/testing-repository';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import { runRecord, suiteRecord } from '../unit/fakes/test-fixtures';
import { storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();
const tenant: Tenant = { accountId: 'acct_backfill', mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const projectId = newId('project', start - 86_400_000);
const everything = { page: 1, perPage: 50, sort: 'created_at' as const, order: 'asc' as const };

describe('the backfill of the index keys GET /v1/tests lists by', () => {
  it('lists suites and runs stored before the keys existed, once run, and changes nothing when run again', async () => {
    const table = await dynamodb.freshTable();
    const tests = dynamoTestRepository(table);
    await storeProject(table, tenant, projectId, new Date(start).toISOString());
    const suite = suiteRecord({ project_id: projectId }, start);
    const run = runRecord({ project_id: projectId, suite_id: suite.id }, start + 60_000);
    const current = runRecord({ project_id: projectId }, start + 120_000);
    await tests.createSuite(tenant, suite);
    await tests.createRun(tenant, run);
    await tests.createRun(tenant, current);
    // The first two as they were stored before GET /v1/tests: without its index keys.
    for (const key of [keys.testSuite(tenant, suite.id), keys.testRun(tenant, run.id)])
      await table.client.send(
        new UpdateCommand({ TableName: table.tableName, Key: key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk' }),
      );
    const listed = async (filters = {}) => (await tests.list(tenant, everything, filters)).items.map((item) => item.id);
    expect(await listed()).toEqual([current.id]);

    expect(await backfillTestObjectIndexes(table)).toEqual({ scanned: 3, updated: 2 });
    expect(await listed()).toEqual([suite.id, run.id, current.id]);
    expect(await listed({ project_id: projectId, object: 'test_run' })).toEqual([run.id, current.id]);
    expect(await tests.getSuite(tenant, suite.id)).toEqual({ ...suite, latest_run_id: run.id });

    expect(await backfillTestObjectIndexes(table)).toEqual({ scanned: 3, updated: 0 });
    expect(await listed()).toEqual([suite.id, run.id, current.id]);
  });
});
