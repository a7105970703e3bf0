import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { dynamoDeploymentRepository } from '../../functions/adapters/dynamodb/deployment-repository';
import { dynamoFindingRepository } from '../../functions/adapters/dynamodb/finding-repository';
import { entityTypes, keys } from '../../functions/adapters/dynamodb/keys';
import { recountAttentionCounts } from '../../functions/adapters/dynamodb/migrations/attention-counts';
import { dynamoSignedInReads } from '../../functions/adapters/dynamodb/signed-in-reads';
import { dynamoWorkflowRepository } from '../../functions/adapters/dynamodb/workflow-repository';
import type { Deployment } from '../../functions/core/deployments/deployment';
import { newId } from '../../functions/core/ids';
import type { Finding } from '../../functions/core/security/finding';
import type { AttentionCounts } from '../../functions/core/sessions/session';
import type { Tenant } from '../../functions/core/tenancy';
import { newWorkflow, type Workflow } from '../../functions/core/workflows/workflow';
import { deploymentRecord } from '../unit/fakes/deployment-fixtures';
import { findingRecord, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const tenant: Tenant = { accountId: 'acct_counts', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const minutes = (n: number): number => start + n * 60_000;
const projectId = newId('project', start - 86_400_000);
const scanId = newId('scan', start - 60_000);

/** Home's counts, as Home reads them: with the session, in one batch. */
const countsOf = async (table: TableRef, of: Tenant = tenant): Promise<AttentionCounts | undefined> =>
  (
    await dynamoSignedInReads(table).read({
      hash: 'a'.repeat(64),
      userId: 'usr_a',
      accountId: of.accountId,
      mode: of.mode,
      attention: true,
    })
  ).attention;
const none: AttentionCounts = { runningWorkflows: 0, openCriticalFindings: 0, deploymentsInProgress: 0 };

const workflow = (minute: number): Workflow =>
  newWorkflow({
    id: newId('workflow', minutes(minute)),
    project_id: projectId,
    name: `Change ${minute}`,
    prompt: 'Make it better',
    config: { branch: null, ai_provider: 'local', max_iterations: 2, auto_deploy: false, review: true },
    now: new Date(minutes(minute)).toISOString(),
  });
const workflowIn = (record: Workflow, status: Workflow['status']): Workflow => ({ ...record, status, version: record.version + 1 });
const created = { type: 'workflow.created' as const, data: {} };

const deployment = (minute: number, overrides: Partial<Deployment> = {}): Deployment =>
  deploymentRecord({ project_id: projectId, ...overrides }, minutes(minute));
const deploymentIn = (record: Deployment, status: Deployment['status']): Deployment => ({
  ...record,
  status,
  revision: record.revision + 1,
});

const finding = (minute: number, overrides: Partial<Finding> = {}): Finding =>
  findingRecord({ projectId, scanId, atMs: minutes(minute), minute }, { severity: 'critical', ...overrides });
const findingIn = (record: Finding, status: Finding['status']): Finding => ({ ...record, status, revision: record.revision + 1 });

describe("Home's counters on DynamoDB Local", () => {
  let table: TableRef;
  beforeEach(async () => {
    table = await dynamodb.freshTable();
    await storeProject(table, tenant, projectId, new Date(start).toISOString());
  });

  it('count running workflows from start to each end, never below zero, each mode apart', async () => {
    const workflows = dynamoWorkflowRepository(table);
    const [a, b, c] = [workflow(1), workflow(2), workflow(3)];
    for (const record of [a, b, c]) expect(await workflows.create(tenant, record, created)).toBe(true);
    expect(await countsOf(table)).toEqual(none);

    const [aRunning, bRunning, cRunning] = [workflowIn(a, 'running'), workflowIn(b, 'running'), workflowIn(c, 'running')];
    expect(await workflows.save(tenant, a, aRunning, [])).toBe(true);
    expect(await workflows.save(tenant, b, bRunning, [])).toBe(true);
    expect(await workflows.save(tenant, c, cRunning, [])).toBe(true);
    expect(await countsOf(table)).toEqual({ ...none, runningWorkflows: 3 });
    expect(await countsOf(table, otherMode)).toEqual(none);

    // A save at a stale version moves nothing.
    expect(await workflows.save(tenant, a, workflowIn(a, 'cancelled'), [])).toBe(false);
    // Running to running (a stage passing) moves nothing either.
    const aLater = workflowIn(aRunning, 'running');
    expect(await workflows.save(tenant, aRunning, aLater, [])).toBe(true);
    expect(await countsOf(table)).toEqual({ ...none, runningWorkflows: 3 });

    expect(await workflows.save(tenant, aLater, workflowIn(aLater, 'completed'), [])).toBe(true);
    expect(await workflows.save(tenant, bRunning, workflowIn(bRunning, 'failed'), [])).toBe(true);
    expect(await workflows.save(tenant, cRunning, workflowIn(cRunning, 'cancelled'), [])).toBe(true);
    expect(await countsOf(table)).toEqual(none);

    // A workflow queued and cancelled before it ran never counted.
    const d = workflow(4);
    await workflows.create(tenant, d, created);
    await workflows.save(tenant, d, workflowIn(d, 'cancelled'), []);
    expect(await countsOf(table)).toEqual(none);
  });

  it('never refuses a workflow write for its count: one running from before the counters ends, and the count reads zero', async () => {
    const workflows = dynamoWorkflowRepository(table);
    const a = workflow(1);
    await workflows.create(tenant, a, created);
    const aRunning = workflowIn(a, 'running');
    await workflows.save(tenant, a, aRunning, []);
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...keys.counter(keys.runningWorkflows(tenant)), entity: entityTypes.counter, count: 0 },
      }),
    );
    const completed = workflowIn(aRunning, 'completed');
    expect(await workflows.save(tenant, aRunning, completed, [])).toBe(true);
    expect(await workflows.get(tenant, a.id)).toEqual(completed);
    expect(await countsOf(table)).toEqual(none);
  });

  it('count deployments in progress through completed, failed and rolled back, two records of one save moving once', async () => {
    const deployments = dynamoDeploymentRepository(table);
    const first = deployment(0);
    expect(await deployments.create(tenant, first)).toBe('created');
    expect(await countsOf(table)).toEqual(none);
    const firstDeploying = deploymentIn(first, 'in_progress');
    expect(await deployments.save(tenant, first, firstDeploying, [])).toBe(true);
    expect(await countsOf(table)).toEqual({ ...none, deploymentsInProgress: 1 });
    expect(await countsOf(table, otherMode)).toEqual(none);
    const firstDone = deploymentIn(firstDeploying, 'completed');
    expect(await deployments.save(tenant, firstDeploying, firstDone, [], { releaseLock: true, setCurrent: first.id, finished: true })).toBe(
      true,
    );
    expect(await countsOf(table)).toEqual(none);

    const second = deployment(1);
    await deployments.create(tenant, second);
    const secondDeploying = deploymentIn(second, 'in_progress');
    await deployments.save(tenant, second, secondDeploying, []);
    const secondFailed = deploymentIn(secondDeploying, 'failed');
    expect(await deployments.save(tenant, secondDeploying, secondFailed, [], { releaseLock: true, finished: true })).toBe(true);
    expect(await countsOf(table)).toEqual(none);

    // A rollback begun from in progress, ending as rolled back while the earlier one is restored.
    const third = deployment(2);
    await deployments.create(tenant, third);
    const thirdDeploying = deploymentIn(third, 'in_progress');
    await deployments.save(tenant, third, thirdDeploying, []);
    const otherDeploying = deployment(3, { environment: 'staging', status: 'in_progress' });
    await deployments.create(tenant, otherDeploying);
    expect(await countsOf(table)).toEqual({ ...none, deploymentsInProgress: 2 });
    const thirdRolledBack = deploymentIn(thirdDeploying, 'rolled_back');
    const otherDone = deploymentIn(otherDeploying, 'completed');
    expect(
      await deployments.save(tenant, thirdDeploying, thirdRolledBack, [], {
        releaseLock: true,
        finished: true,
        alsoSave: { previous: otherDeploying, next: otherDone },
      }),
    ).toBe(true);
    expect(await countsOf(table)).toEqual(none);
  });

  it('counts a rollback begun on a completed deployment as in progress', async () => {
    const deployments = dynamoDeploymentRepository(table);
    const first = deployment(0);
    await deployments.create(tenant, first);
    const done = deploymentIn(first, 'completed');
    await deployments.save(tenant, first, done, [], { releaseLock: true, setCurrent: first.id, finished: true });
    const rolling = deploymentIn(done, 'in_progress');
    expect(await deployments.beginRollback(tenant, done, rolling)).toBe('started');
    expect(await countsOf(table)).toEqual({ ...none, deploymentsInProgress: 1 });
    expect(await deployments.save(tenant, rolling, deploymentIn(rolling, 'rolled_back'), [], { releaseLock: true, finished: true })).toBe(
      true,
    );
    expect(await countsOf(table)).toEqual(none);
  });

  it('count open critical findings through resolved and reopened, and no other severity', async () => {
    const findings = dynamoFindingRepository(table);
    const critical = finding(1);
    const high = finding(2, { severity: 'high' });
    expect(await findings.create(tenant, critical, [])).toBe(true);
    expect(await findings.create(tenant, high, [])).toBe(true);
    expect(await countsOf(table)).toEqual({ ...none, openCriticalFindings: 1 });
    expect(await countsOf(table, otherMode)).toEqual(none);

    const remediating = findingIn(critical, 'remediating');
    expect(await findings.save(tenant, critical, remediating, [])).toBe(true);
    expect(await countsOf(table)).toEqual(none);
    const resolved = findingIn(remediating, 'resolved');
    expect(await findings.save(tenant, remediating, resolved, [])).toBe(true);
    expect(await findings.save(tenant, high, findingIn(high, 'resolved'), [])).toBe(true);
    expect(await countsOf(table)).toEqual(none);
    const reopened = findingIn(resolved, 'open');
    expect(await findings.save(tenant, resolved, reopened, [])).toBe(true);
    expect(await countsOf(table)).toEqual({ ...none, openCriticalFindings: 1 });
  });

  it('are recounted from the records by the one-off migration, idempotently', async () => {
    const workflows = dynamoWorkflowRepository(table);
    const findings = dynamoFindingRepository(table);
    const deployments = dynamoDeploymentRepository(table);
    const a = workflow(1);
    await workflows.create(tenant, a, created);
    await workflows.save(tenant, a, workflowIn(a, 'running'), []);
    await findings.create(tenant, finding(2), []);
    await findings.create(otherMode, finding(3), []);
    await deployments.create(tenant, deployment(4, { status: 'in_progress' }));
    // Records from before the counters: the counters are gone.
    for (const key of [
      keys.runningWorkflows(tenant),
      keys.openCriticalFindings(tenant),
      keys.openCriticalFindings(otherMode),
      keys.deploymentsInProgress(tenant),
    ])
      await table.client.send(
        new PutCommand({ TableName: table.tableName, Item: { ...keys.counter(key), entity: entityTypes.counter, count: 0 } }),
      );
    expect(await countsOf(table)).toEqual(none);

    const expected = { runningWorkflows: 1, openCriticalFindings: 1, deploymentsInProgress: 1 };
    const report = {
      runningWorkflows: { tenants: 1, counted: 1 },
      openCriticalFindings: { tenants: 2, counted: 2 },
      deploymentsInProgress: { tenants: 1, counted: 1 },
    };
    expect(await recountAttentionCounts(table)).toEqual(report);
    expect(await countsOf(table)).toEqual(expected);
    expect(await countsOf(table, otherMode)).toEqual({ ...none, openCriticalFindings: 1 });
    expect(await recountAttentionCounts(table)).toEqual(report);
    expect(await countsOf(table)).toEqual(expected);
  });
});
