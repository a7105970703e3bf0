import { dynamoScanList, dynamoScanReader, dynamoScanRepository } from '../../functions/adapters/dynamodb/scan-repository';
import { newId } from '../../functions/core/ids';
import type { Scan, ScanRepository } from '../../functions/core/security/scan';
import type { Tenant } from '../../functions/core/tenancy';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { byCreation, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/**
 * A ScanRepository, the way a project comes to exist beside it, and the events it has written.
 * The security use cases are tried through HTTP (the integration tier), so no in-memory fake
 * exists yet; one that is written joins this list and is held to the same behaviour.
 */
interface Subject {
  scans: ScanRepository;
  addProject(tenant: Tenant, projectId: string): Promise<void>;
  events(tenant: Tenant): Promise<PendingEvent[]>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        scans: dynamoScanRepository(table),
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start - 86_400_000).toISOString()),
        events: (tenant) => storedEvents(table, tenant),
      };
    },
  ],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        scans: { ...dynamoScanRepository(table), ...dynamoScanReader(table), ...dynamoScanList(table) },
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start - 86_400_000).toISOString()),
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

const scan = (minute: number, overrides: Partial<Scan> = {}): Scan => {
  const at = new Date(minutes(minute)).toISOString();
  return {
    id: newId('scan', minutes(minute)),
    project_id: projectId,
    branch: null,
    branch_scanned: null,
    commit: null,
    scan_types: ['secrets', 'sast'],
    status: 'queued',
    summary: null,
    coverage: {},
    errors: [],
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    duration_ms: null,
    revision: 1,
    ...overrides,
  };
};

const completedEvent: PendingEvent = { type: 'security.scan.completed', data: { total: 0 } };

describe.each(implementations)('ScanRepository: %s', (_name, make) => {
  let subject: Subject;
  let scans: ScanRepository;
  beforeEach(async () => {
    subject = await make();
    scans = subject.scans;
    await subject.addProject(tenant, projectId);
    await subject.addProject(tenant, otherProjectId);
  });

  it('creates a scan only of a project that exists, gives it back per account and mode, and refuses a second create', async () => {
    const created = scan(0);
    expect(await scans.create(tenant, created)).toBe(true);
    expect(await scans.get(tenant, created.id)).toEqual(created);
    expect(await scans.get(otherMode, created.id)).toBeUndefined();
    const orphan = scan(1, { project_id: newId('project', start) });
    expect(await scans.create(tenant, orphan)).toBe(false);
    expect(await scans.get(tenant, orphan.id)).toBeUndefined();
    await expect(scans.create(tenant, { ...created, scan_types: ['dependencies'] })).rejects.toThrow();
    expect(await scans.get(tenant, created.id)).toEqual(created);
    expect((await scans.list(tenant, byCreation(), {})).total).toBe(1);
  });

  it('saves only over the revision it was read at, with its events; a refused save writes none', async () => {
    const created = scan(0);
    await scans.create(tenant, created);
    const running: Scan = { ...created, status: 'running', started_at: created.created_at, revision: 2 };
    expect(await scans.save(tenant, created, running, [])).toBe(true);
    const done: Scan = { ...running, status: 'completed', branch_scanned: 'main', commit: 'abc123', revision: 3 };
    expect(await scans.save(tenant, created, { ...done, status: 'failed' }, [completedEvent])).toBe(false);
    expect(await scans.save(tenant, running, done, [completedEvent])).toBe(true);
    expect(await scans.get(tenant, created.id)).toEqual(done);
    expect(await subject.events(tenant)).toEqual([completedEvent]);
    expect(await subject.events(otherMode)).toEqual([]);
    const unknown = scan(5);
    expect(await scans.save(tenant, unknown, { ...unknown, revision: 2 }, [completedEvent])).toBe(false);
    expect(await scans.get(tenant, unknown.id)).toBeUndefined();
  });

  it('lists by creation in either order, filtered by project and status, paged, with the total and a created range', async () => {
    const records = [scan(0), scan(1, { project_id: otherProjectId }), scan(2), scan(3), scan(4, { project_id: otherProjectId })];
    for (const record of records) expect(await scans.create(tenant, record)).toBe(true);
    const failed = records[2]!;
    await scans.save(tenant, failed, { ...failed, status: 'failed', errors: ['clone failed'], revision: 2 }, []);
    const ids = (page: { items: Scan[] }) => page.items.map((s) => s.id);
    const idsOf = (...indexes: number[]) => indexes.map((i) => records[i]!.id);

    expect(ids(await scans.list(tenant, byCreation(), {}))).toEqual(idsOf(0, 1, 2, 3, 4));
    expect(ids(await scans.list(tenant, byCreation('desc'), {}))).toEqual(idsOf(4, 3, 2, 1, 0));
    expect(await scans.list(otherMode, byCreation(), {})).toEqual({ items: [], total: 0 });
    const ofProject = await scans.list(tenant, byCreation(), { project_id: projectId });
    expect(ids(ofProject)).toEqual(idsOf(0, 2, 3));
    expect(ofProject.total).toBe(3);
    const failedOnes = await scans.list(tenant, byCreation(), { status: 'failed' });
    expect(failedOnes).toEqual({ items: [{ ...failed, status: 'failed', errors: ['clone failed'], revision: 2 }], total: 1 });
    expect(ids(await scans.list(tenant, byCreation(), { project_id: otherProjectId, status: 'queued' }))).toEqual(idsOf(1, 4));

    const second = await scans.list(tenant, byCreation('desc', { page: 2, perPage: 2 }), {});
    expect(ids(second)).toEqual(idsOf(2, 1));
    expect(second.total).toBe(5);
    const ranged = await scans.list(tenant, byCreation('asc', { createdFrom: minutes(1), createdUntil: minutes(4) }), {});
    expect(ids(ranged)).toEqual(idsOf(1, 2, 3));
    expect(ranged.total).toBe(3);
  });
});
