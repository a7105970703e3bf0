import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDeploymentRepository } from '../../functions/adapters/dynamodb/deployment-repository';
import { activeDeploymentsAttribute, keys } from '../../functions/adapters/dynamodb/keys';
import type { Deployment, DeploymentRepository, Environment } from '../../functions/core/deployments/deployment';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { deploymentRecord } from '../unit/fakes/deployment-fixtures';
import { inMemoryDeploymentRepository } from '../unit/fakes/deployment-repository';
import { byCreation, sortedEvents, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/**
 * A DeploymentRepository, the way a project comes to exist beside it, how many deployments its
 * project counts as active (what keeps the project from being deleted) and the events written.
 */
interface Subject {
  deployments: DeploymentRepository;
  addProject(tenant: Tenant, projectId: string): Promise<void>;
  activeOn(tenant: Tenant, projectId: string): Promise<number>;
  /** A workflow with this status (its auto_deploy is refused unless it is running). */
  setWorkflowStatus(tenant: Tenant, workflowId: string, status: 'running' | 'cancelled'): Promise<void>;
  events(tenant: Tenant): Promise<PendingEvent[]>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const deployments = inMemoryDeploymentRepository();
      return {
        deployments,
        async addProject(tenant, id) {
          deployments.addProject(tenant, id);
        },
        async activeOn(tenant, id) {
          return deployments.activeCount(tenant, id);
        },
        async setWorkflowStatus(tenant, id, status) {
          if (status !== 'running') deployments.stopWorkflow(tenant, id);
        },
        async events(tenant) {
          return sortedEvents(deployments.eventsOf(tenant));
        },
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        deployments: dynamoDeploymentRepository(table),
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start - 86_400_000).toISOString()),
        async activeOn(tenant, id) {
          const { Item } = await table.client.send(
            new GetCommand({ TableName: table.tableName, Key: keys.project(tenant, id), ConsistentRead: true }),
          );
          return Number(Item?.[activeDeploymentsAttribute] ?? 0);
        },
        async setWorkflowStatus(tenant, id, status) {
          await table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.workflow(tenant, id), id, status } }));
        },
        events: (tenant) => storedEvents(table, tenant),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const minutes = (n: number): number => start + n * 60_000;
const projectId = newId('project', start - 86_400_000);
const otherProjectId = newId('project', start - 43_200_000);

const deployment = (minute: number, overrides: Partial<Deployment> = {}): Deployment =>
  deploymentRecord({ project_id: projectId, ...overrides }, minutes(minute));

/** What a deployment looks like once it ended: completed (or as given), one revision on. */
const ended = (record: Deployment, status: Deployment['status'] = 'completed'): Deployment => ({
  ...record,
  status,
  completed_at: record.updated_at,
  revision: record.revision + 1,
});

const completedEvent: PendingEvent = { type: 'deployment.completed', data: { url: 'https://shop.example' } };

describe.each(implementations)('DeploymentRepository: %s', (_name, make) => {
  let subject: Subject;
  let deployments: DeploymentRepository;
  beforeEach(async () => {
    subject = await make();
    deployments = subject.deployments;
    await subject.addProject(tenant, projectId);
    await subject.addProject(tenant, otherProjectId);
  });

  /** Creates a deployment and ends it completed, as the current one of its place. */
  const completedCurrent = async (record: Deployment): Promise<Deployment> => {
    expect(await deployments.create(tenant, record)).toBe('created');
    const done = ended(record);
    expect(await deployments.save(tenant, record, done, [], { releaseLock: true, setCurrent: record.id, finished: true })).toBe(true);
    return done;
  };

  it("creates a deployment of a known project, holding its environment's lock and counting it active; writes nothing otherwise", async () => {
    const first = deployment(0);
    expect(await deployments.create(tenant, first)).toBe('created');
    expect(await deployments.get(tenant, first.id)).toEqual(first);
    expect(await deployments.get(otherMode, first.id)).toBeUndefined();
    expect(await subject.activeOn(tenant, projectId)).toBe(1);

    const sameEnvironment = deployment(1);
    expect(await deployments.create(tenant, sameEnvironment)).toBe('busy');
    expect(await deployments.get(tenant, sameEnvironment.id)).toBeUndefined();

    const otherEnvironment = deployment(2, { environment: 'staging' });
    expect(await deployments.create(tenant, otherEnvironment)).toBe('created');
    expect(await subject.activeOn(tenant, projectId)).toBe(2);

    const orphan = deployment(3, { project_id: newId('project', start) });
    expect(await deployments.create(tenant, orphan)).toBe('project_missing');
    expect(await deployments.get(tenant, orphan.id)).toBeUndefined();
    expect(await subject.activeOn(tenant, projectId)).toBe(2);
  });

  it("creates a workflow's auto_deploy only while the workflow runs: a cancelled one's writes nothing", async () => {
    const running = newId('workflow', start);
    const cancelled = newId('workflow', start + 1);
    await subject.setWorkflowStatus(tenant, running, 'running');
    await subject.setWorkflowStatus(tenant, cancelled, 'cancelled');
    const refused = deployment(0);
    expect(await deployments.create(tenant, refused, { whileWorkflowRuns: cancelled })).toBe('workflow_stopped');
    expect(await deployments.get(tenant, refused.id)).toBeUndefined();
    expect(await subject.activeOn(tenant, projectId)).toBe(0);
    const made = deployment(1);
    expect(await deployments.create(tenant, made, { whileWorkflowRuns: running })).toBe('created');
    expect(await deployments.get(tenant, made.id)).toEqual(made);
  });

  it('saves only over the revision read, with its events, releasing the lock, setting the current one and ending its activity', async () => {
    const first = deployment(0);
    await deployments.create(tenant, first);
    const done = ended(first);
    const stale = { ...first, revision: 5 };
    expect(await deployments.save(tenant, stale, ended(stale, 'failed'), [completedEvent], { releaseLock: true, finished: true })).toBe(
      false,
    );
    expect(await deployments.save(tenant, first, done, [completedEvent], { releaseLock: true, setCurrent: first.id, finished: true })).toBe(
      true,
    );
    expect(await deployments.save(tenant, first, { ...done, status: 'failed' }, [completedEvent], { releaseLock: true })).toBe(false);
    expect(await deployments.get(tenant, first.id)).toEqual(done);
    expect(await deployments.currentId(tenant, projectId, 'production')).toBe(first.id);
    expect(await deployments.currentId(tenant, projectId, 'staging')).toBeUndefined();
    expect(await subject.activeOn(tenant, projectId)).toBe(0);
    expect(await subject.events(tenant)).toEqual([completedEvent]);
    expect(await subject.events(otherMode)).toEqual([]);
    // The lock is free again: the next deployment of the environment starts.
    expect(await deployments.create(tenant, deployment(1))).toBe('created');
  });

  it('refuses, writing nothing, a save that releases a lock the deployment does not hold', async () => {
    const holder = deployment(0);
    await deployments.create(tenant, holder);
    const elsewhere = deployment(1, { environment: 'preview' });
    await deployments.create(tenant, elsewhere);
    // Its next record names production, whose lock the first deployment holds.
    const moved: Deployment = { ...ended(elsewhere, 'failed'), environment: 'production' };
    await expect(deployments.save(tenant, elsewhere, moved, [completedEvent], { releaseLock: true })).rejects.toThrow();
    expect(await deployments.get(tenant, elsewhere.id)).toEqual(elsewhere);
    expect(await deployments.create(tenant, deployment(2))).toBe('busy');
    expect(await deployments.create(tenant, deployment(3, { environment: 'preview' }))).toBe('busy');
    expect(await subject.events(tenant)).toEqual([]);
  });

  it('saves a second deployment in the same step only when both are at the revisions read', async () => {
    const older = await completedCurrent(deployment(0));
    const newer = await completedCurrent(deployment(1));
    const rolledBack: Deployment = { ...newer, status: 'rolled_back', revision: newer.revision + 1 };
    const restored: Deployment = { ...older, rolled_back_from: newer.id, revision: older.revision + 1 };
    expect(
      await deployments.save(tenant, newer, rolledBack, [], {
        setCurrent: older.id,
        alsoSave: { previous: { ...older, revision: 7 }, next: restored },
      }),
    ).toBe(false);
    expect(await deployments.get(tenant, newer.id)).toEqual(newer);
    expect(await deployments.currentId(tenant, projectId, 'production')).toBe(newer.id);
    expect(
      await deployments.save(tenant, newer, rolledBack, [], { setCurrent: older.id, alsoSave: { previous: older, next: restored } }),
    ).toBe(true);
    expect(await deployments.get(tenant, newer.id)).toEqual(rolledBack);
    expect(await deployments.get(tenant, older.id)).toEqual(restored);
    expect(await deployments.currentId(tenant, projectId, 'production')).toBe(older.id);
  });

  it('finds the latest completed deployment of the environment created before a given one', async () => {
    const first = await completedCurrent(deployment(0));
    const failed = deployment(1);
    await deployments.create(tenant, failed);
    await deployments.save(tenant, failed, ended(failed, 'failed'), [], { releaseLock: true, finished: true });
    await completedCurrent(deployment(2, { environment: 'staging' }));
    const third = await completedCurrent(deployment(3));
    const fourth = await completedCurrent(deployment(4));

    expect(await deployments.previousCompleted(tenant, projectId, 'production', fourth.id)).toEqual(third);
    expect(await deployments.previousCompleted(tenant, projectId, 'production', third.id)).toEqual(first);
    expect(await deployments.previousCompleted(tenant, projectId, 'production', first.id)).toBeUndefined();
    expect(await deployments.previousCompleted(tenant, otherProjectId, 'production', fourth.id)).toBeUndefined();
    expect(await deployments.previousCompleted(otherMode, projectId, 'production', fourth.id)).toBeUndefined();
  });

  it('begins a rollback only of the current, unchanged deployment with the lock free, taking the lock and counting it active', async () => {
    const older = await completedCurrent(deployment(0));
    const current = await completedCurrent(deployment(1));
    const requested = (record: Deployment): Deployment => ({
      ...record,
      revision: record.revision + 1,
      updated_at: new Date(minutes(9)).toISOString(),
    });

    expect(await deployments.beginRollback(tenant, older, requested(older))).toBe('not_current');
    expect(await deployments.beginRollback(tenant, { ...current, revision: 9 }, requested({ ...current, revision: 9 }))).toBe('changed');
    expect(await deployments.get(tenant, current.id)).toEqual(current);

    const running = deployment(2);
    await deployments.create(tenant, running);
    expect(await deployments.beginRollback(tenant, current, requested(current))).toBe('busy');
    await deployments.save(tenant, running, ended(running, 'failed'), [], { releaseLock: true, finished: true });
    expect(await subject.activeOn(tenant, projectId)).toBe(0);

    expect(await deployments.beginRollback(tenant, current, requested(current))).toBe('started');
    expect(await deployments.get(tenant, current.id)).toEqual(requested(current));
    expect(await subject.activeOn(tenant, projectId)).toBe(1);
    expect(await deployments.create(tenant, deployment(3))).toBe('busy');
  });

  it('lists by creation in either order, filtered by project, environment and status, paged, with the total and a created range', async () => {
    const records = [
      deployment(0),
      deployment(1, { environment: 'staging' }),
      deployment(2, { project_id: otherProjectId }),
      deployment(3, { environment: 'preview' }),
      deployment(4, { project_id: otherProjectId, environment: 'staging' }),
    ];
    for (const record of records) expect(await deployments.create(tenant, record)).toBe('created');
    const failed = records[3]!;
    await deployments.save(tenant, failed, ended(failed, 'failed'), [], { releaseLock: true, finished: true });
    const ids = (page: { items: Deployment[] }) => page.items.map((d) => d.id);
    const idsOf = (...indexes: number[]) => indexes.map((i) => records[i]!.id);

    expect(ids(await deployments.list(tenant, byCreation(), {}))).toEqual(idsOf(0, 1, 2, 3, 4));
    expect(ids(await deployments.list(tenant, byCreation('desc'), {}))).toEqual(idsOf(4, 3, 2, 1, 0));
    expect(await deployments.list(otherMode, byCreation(), {})).toEqual({ items: [], total: 0 });

    const ofProject = await deployments.list(tenant, byCreation(), { project_id: projectId });
    expect(ids(ofProject)).toEqual(idsOf(0, 1, 3));
    expect(ofProject.total).toBe(3);
    expect(ids(await deployments.list(tenant, byCreation(), { environment: 'staging' as Environment }))).toEqual(idsOf(1, 4));
    expect(ids(await deployments.list(tenant, byCreation(), { project_id: otherProjectId, environment: 'staging' }))).toEqual(idsOf(4));
    const failedOnes = await deployments.list(tenant, byCreation(), { status: 'failed' });
    expect(failedOnes.items).toEqual([ended(failed, 'failed')]);
    expect(failedOnes.total).toBe(1);

    const second = await deployments.list(tenant, byCreation('asc', { page: 2, perPage: 2 }), {});
    expect(ids(second)).toEqual(idsOf(2, 3));
    expect(second.total).toBe(5);

    const ranged = await deployments.list(tenant, byCreation('asc', { createdFrom: minutes(1), createdUntil: minutes(3) }), {});
    expect(ids(ranged)).toEqual(idsOf(1, 2));
    expect(ranged.total).toBe(2);
  });
});
