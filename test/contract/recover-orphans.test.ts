import { dynamoDeploymentRepository } from '../../functions/adapters/dynamodb/deployment-repository';
import type { Deployment } from '../../functions/core/deployments/deployment';
import { isoTime } from '../../functions/core/clock';
import { failOrphans } from '../../lib/local/recover-orphans';
import { completedRecord, deploymentRecord, projectId, tenant } from '../unit/fakes/deployment-fixtures';
import { storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/**
 * The local runtime's restart (DynamoDB Local): a deployment its previous run left under way has no
 * execution left. It fails at the step it had reached, and no automatic rollback is recorded as
 * under way or failed, since nothing would run it.
 */
describe('a local restart fails the deployments left under way', () => {
  const setUp = async () => {
    const table = await dynamodb.freshTable();
    await storeProject(table, tenant, projectId, isoTime(Date.parse('2026-01-01T00:00:00.000Z')));
    const deployments = dynamoDeploymentRepository(table);
    const previous = completedRecord(3_600_000);
    expect(await deployments.create(tenant, { ...previous, status: 'queued', revision: 1 })).toBe('created');
    const stored = (await deployments.get(tenant, previous.id)) as Deployment;
    expect(await deployments.save(tenant, stored, previous, [], { releaseLock: true, setCurrent: previous.id, finished: true })).toBe(true);
    const underWay = async (overrides: Partial<Deployment>) => {
      const queued = deploymentRecord();
      expect(await deployments.create(tenant, queued)).toBe('created');
      const running: Deployment = { ...queued, status: 'in_progress', started_at: queued.created_at, revision: 2, ...overrides };
      expect(await deployments.save(tenant, queued, running, [])).toBe(true);
      return running;
    };
    return { table, deployments, underWay };
  };

  it('one deployed and in its health checks fails at health_check, says its code may be live, and records no rollback', async () => {
    const { table, deployments, underWay } = await setUp();
    const checking = await underWay({ deployed: { url: 'https://new.example.test', version: 'v2', details: {} } });
    expect(await failOrphans(table)).toBe(1);
    const failed = await deployments.get(tenant, checking.id);
    expect(failed).toMatchObject({
      status: 'failed',
      rollback: null,
      error: { step: 'health_check', message: expect.stringContaining('nothing was rolled back') },
    });
    expect((await storedEvents(table, tenant)).map((event) => event.type)).toEqual(['deployment.failed']);
    // The lock is free: the next deployment of the environment starts.
    expect(await deployments.create(tenant, deploymentRecord({}, Date.parse('2026-11-22T00:00:00.000Z')))).toBe('created');
  });

  it('one not yet deployed fails at deploy', async () => {
    const { table, deployments, underWay } = await setUp();
    const deploying = await underWay({});
    expect(await failOrphans(table)).toBe(1);
    expect(await deployments.get(tenant, deploying.id)).toMatchObject({ status: 'failed', error: { step: 'deploy' }, rollback: null });
  });
});
