import { dynamoFindingRepository } from '../../functions/adapters/dynamodb/finding-repository';
import { dynamoScanRepository } from '../../functions/adapters/dynamodb/scan-repository';
import { dynamoTestRepository } from '../../functions/adapters/dynamodb/testing-repository';
import { isoTime } from '../../functions/core/clock';
import { newId } from '../../functions/core/ids';
import type { Finding } from '../../functions/core/security/finding';
import type { Scan } from '../../functions/core/security/scan';
import { failOrphans } from '../../lib/local/recover-orphans';
import { startOfTests } from '../unit/fakes/clock';
import {
  completedSuiteRecord,
  runRecord,
  suiteRecord,
  testProjectId as projectId,
  testTenant as tenant,
} from '../unit/fakes/test-fixtures';
import { findingRecord, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const scanRecord = (status: Scan['status'], atMs: number): Scan => {
  const at = isoTime(atMs);
  return {
    id: newId('scan', atMs),
    project_id: projectId,
    branch: null,
    branch_scanned: null,
    commit: null,
    scan_types: ['secrets'],
    status,
    summary: null,
    coverage: {},
    errors: [],
    created_at: at,
    updated_at: at,
    started_at: status === 'queued' ? null : at,
    completed_at: null,
    duration_ms: null,
    revision: 1,
  };
};

/**
 * The local runtime's restart (DynamoDB Local): scans, remediations, test generations and test
 * runs run in its process, so one its previous run left under way has nothing to finish it. Each
 * fails with its reason (and its event where it has one) rather than staying under way for ever;
 * finished ones are left alone.
 */
describe('a local restart fails the jobs left under way', () => {
  it('fails scans, remediations, test generations and test runs under way, with their events, and leaves finished ones alone', async () => {
    const table = await dynamodb.freshTable();
    await storeProject(table, tenant, projectId, isoTime(startOfTests - 86_400_000));
    const scans = dynamoScanRepository(table);
    const findings = dynamoFindingRepository(table);
    const tests = dynamoTestRepository(table);

    const running = scanRecord('running', startOfTests - 60_000);
    const queued = scanRecord('queued', startOfTests - 50_000);
    const finished = { ...scanRecord('completed', startOfTests - 40_000), completed_at: isoTime(startOfTests - 30_000) };
    for (const scan of [running, queued, finished]) expect(await scans.create(tenant, scan)).toBe(true);

    const open = findingRecord({ projectId, scanId: running.id, atMs: startOfTests - 20_000, minute: 1 });
    expect(await findings.create(tenant, open, [])).toBe(true);
    const remediating: Finding = {
      ...open,
      status: 'remediating',
      remediation: {
        status: 'in_progress',
        method: null,
        requested_at: open.created_at,
        completed_at: null,
        error: null,
        patch: null,
        pushed_branch: null,
      },
      revision: open.revision + 1,
    };
    expect(await findings.startRemediation(tenant, open, remediating, [])).toBe('started');
    const untouched = findingRecord({ projectId, scanId: running.id, atMs: startOfTests - 10_000, minute: 2 });
    expect(await findings.create(tenant, untouched, [])).toBe(true);

    const generating = suiteRecord({ status: 'running' });
    const generated = completedSuiteRecord();
    const runningRun = runRecord({ status: 'running' });
    const queuedRun = runRecord({}, startOfTests - 30_000);
    for (const suite of [generating, generated]) expect(await tests.createSuite(tenant, suite)).toBe(true);
    for (const run of [runningRun, queuedRun]) expect(await tests.createRun(tenant, run)).toBe(true);

    expect(await failOrphans(table)).toBe(6);

    const restarted = 'the local runtime stopped while it ran';
    for (const scan of [running, queued]) {
      expect(await scans.get(tenant, scan.id)).toMatchObject({
        status: 'failed',
        errors: [`The scan stopped: ${restarted}; create it again.`],
        completed_at: expect.any(String),
      });
    }
    expect(await scans.get(tenant, finished.id)).toEqual(finished);
    expect(await findings.get(tenant, open.id)).toMatchObject({
      status: 'open',
      remediation: { status: 'failed', error: `The remediate stopped: ${restarted}; remediate the finding again.` },
    });
    expect(await findings.get(tenant, untouched.id)).toEqual(untouched);
    expect(await tests.getSuite(tenant, generating.id)).toMatchObject({ status: 'failed', error: expect.stringContaining(restarted) });
    expect(await tests.getSuite(tenant, generated.id)).toEqual(generated);
    for (const run of [runningRun, queuedRun]) {
      expect(await tests.getRun(tenant, run.id)).toMatchObject({
        status: 'failed',
        error: `The run stopped: ${restarted}; run the tests again.`,
      });
    }

    const events = await storedEvents(table, tenant);
    expect(events.filter((event) => event.type === 'security.scan.completed').map((event) => event.data.id)).toEqual(
      expect.arrayContaining([running.id, queued.id]),
    );
    expect(events.filter((event) => event.type === 'test.run.completed').map((event) => event.data.id)).toEqual(
      expect.arrayContaining([runningRun.id, queuedRun.id]),
    );
    expect(events.filter((event) => event.type === 'security.finding.remediation.failed').map((event) => event.data)).toEqual([
      expect.objectContaining({
        id: open.id,
        status: 'open',
        remediation: expect.objectContaining({
          status: 'failed',
          error: `The remediate stopped: ${restarted}; remediate the finding again.`,
        }),
      }),
    ]);
    expect(events.filter((event) => event.type === 'test.generation.completed').map((event) => event.data)).toEqual([
      expect.objectContaining({ id: generating.id, status: 'failed', error: expect.stringContaining(restarted) }),
    ]);
    expect(events).toHaveLength(6);

    // A second start finds nothing under way.
    expect(await failOrphans(table)).toBe(0);
  });
});
