import { dynamoFindingList, dynamoFindingReader, dynamoFindingRepository } from '../../functions/adapters/dynamodb/finding-repository';
import { newId } from '../../functions/core/ids';
import type { ListQuery } from '../../functions/core/pagination';
import {
  type Finding,
  type FindingRepository,
  type FindingSort,
  type ScopeClaim,
  ScopeSupersededError,
} from '../../functions/core/security/finding';
import type { Tenant } from '../../functions/core/tenancy';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { byCreation, findingRecord, sortedEvents, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/**
 * A FindingRepository and the events it has written. The security use cases are tried through
 * HTTP (the integration tier), so no in-memory fake exists yet; one that is written joins this
 * list and is held to the same behaviour.
 */
interface Subject {
  findings: FindingRepository;
  events(tenant: Tenant): Promise<PendingEvent[]>;
  /** Stores a project as the service creates one. */
  storeProject(tenant: Tenant, id: string): Promise<void>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        findings: dynamoFindingRepository(table),
        events: (tenant) => storedEvents(table, tenant),
        storeProject: (tenant, id) => storeProject(table, tenant, id, new Date(start).toISOString()),
      };
    },
  ],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        findings: { ...dynamoFindingRepository(table), ...dynamoFindingReader(table), ...dynamoFindingList(table) },
        events: (tenant) => storedEvents(table, tenant),
        storeProject: (tenant, id) => storeProject(table, tenant, id, new Date(start).toISOString()),
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
const scanId = newId('scan', start - 60_000);
const laterScanId = newId('scan', start + 3_600_000);

const finding = (minute: number, overrides: Partial<Finding> = {}): Finding =>
  findingRecord({ projectId, scanId, atMs: minutes(minute), minute }, overrides);

const found = (record: Finding): PendingEvent => ({ type: 'security.finding.created', data: { id: record.id } });
const bySeverity = (order: 'asc' | 'desc' = 'asc', extra: Partial<ListQuery<FindingSort>> = {}): ListQuery<FindingSort> => ({
  page: 1,
  perPage: 50,
  sort: 'severity',
  order,
  ...extra,
});

describe.each(implementations)('FindingRepository: %s', (_name, make) => {
  let subject: Subject;
  let findings: FindingRepository;
  beforeEach(async () => {
    subject = await make();
    findings = subject.findings;
  });

  it('creates a finding once per fingerprint in its project, branch and scan type, with its events; a refused create writes nothing', async () => {
    const first = finding(0);
    expect(await findings.create(tenant, first, [found(first)])).toBe(true);
    expect(await findings.get(tenant, first.id)).toEqual(first);
    expect(await findings.get(otherMode, first.id)).toBeUndefined();

    const again = finding(1, { fingerprint: first.fingerprint });
    expect(await findings.create(tenant, again, [found(again)])).toBe(false);
    expect(await findings.get(tenant, again.id)).toBeUndefined();
    expect(await subject.events(tenant)).toEqual([found(first)]);

    const elsewhere = [
      finding(2, { fingerprint: first.fingerprint, branch: 'release' }),
      finding(3, { fingerprint: first.fingerprint, type: 'sast' }),
      finding(4, { fingerprint: first.fingerprint, project_id: otherProjectId }),
    ];
    for (const record of elsewhere) expect(await findings.create(tenant, record, [found(record)])).toBe(true);
    expect(await findings.create(otherMode, again, [])).toBe(true);
    expect(await subject.events(tenant)).toEqual(sortedEvents([first, ...elsewhere].map(found)));
    expect((await findings.list(tenant, byCreation(), {})).total).toBe(4);
  });

  it("gives a scope's findings to the scan whose checkout began last: another scan's claimed writes are refused and write nothing", async () => {
    const earlier: ScopeClaim = { scanId, checkoutStartedAt: new Date(minutes(0)).toISOString() };
    const later: ScopeClaim = { scanId: laterScanId, checkoutStartedAt: new Date(minutes(5)).toISOString() };
    expect(await findings.claimScope(tenant, projectId, 'main', 'secrets', earlier)).toBe(true);
    const first = finding(0);
    expect(await findings.create(tenant, first, [found(first)], earlier)).toBe(true);

    expect(await findings.claimScope(tenant, projectId, 'main', 'secrets', later)).toBe(true);
    expect(await findings.claimScope(tenant, projectId, 'main', 'secrets', earlier)).toBe(false);
    expect(await findings.claimScope(tenant, projectId, 'main', 'secrets', later)).toBe(true);
    const second = finding(1);
    await expect(findings.create(tenant, second, [found(second)], earlier)).rejects.toBeInstanceOf(ScopeSupersededError);
    const resolved: Finding = { ...first, status: 'resolved', resolution: 'fixed', revision: 2 };
    const resolvedEvent: PendingEvent = { type: 'security.finding.resolved', data: { id: first.id } };
    await expect(findings.save(tenant, first, resolved, [resolvedEvent], earlier)).rejects.toBeInstanceOf(ScopeSupersededError);
    expect(await findings.get(tenant, second.id)).toBeUndefined();
    expect(await findings.get(tenant, first.id)).toEqual(first);
    expect(await subject.events(tenant)).toEqual([found(first)]);

    // The holder writes; a stale revision is still refused (false), not taken for a lost claim.
    expect(await findings.save(tenant, first, resolved, [resolvedEvent], later)).toBe(true);
    expect(await findings.save(tenant, first, { ...resolved, revision: 2 }, [], later)).toBe(false);
    // Claims are per project, branch and scan type, and per account and mode.
    expect(await findings.claimScope(tenant, projectId, 'release', 'secrets', earlier)).toBe(true);
    expect(await findings.claimScope(tenant, projectId, 'main', 'sast', earlier)).toBe(true);
    expect(await findings.claimScope(otherMode, projectId, 'main', 'secrets', earlier)).toBe(true);
    // Unclaimed writes (a remediation's) are not held back by any claim.
    const remediating: Finding = { ...resolved, status: 'open', resolution: null, revision: 3 };
    expect(await findings.save(tenant, resolved, remediating, [])).toBe(true);
  });

  it('gives every finding of a project, branch and scan type, whatever its status: what a scan is compared with', async () => {
    const open = finding(0);
    const resolved = finding(1, { status: 'resolved', resolution: 'fixed', resolved_at: new Date(minutes(2)).toISOString() });
    const others = [finding(2, { branch: 'release' }), finding(3, { type: 'dependencies' }), finding(4, { project_id: otherProjectId })];
    for (const record of [open, resolved, ...others]) await findings.create(tenant, record, []);
    const scope = await findings.ofScope(tenant, projectId, 'main', 'secrets');
    expect([...scope].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([open, resolved]);
    expect(await findings.ofScope(otherMode, projectId, 'main', 'secrets')).toEqual([]);
    expect(await findings.ofScope(tenant, projectId, 'develop', 'secrets')).toEqual([]);
  });

  it('saves only over the revision it was read at, with its events; a refused save writes none', async () => {
    const created = finding(0);
    await findings.create(tenant, created, []);
    const seenAgain: Finding = { ...created, scan_id: laterScanId, last_seen_at: new Date(minutes(60)).toISOString(), revision: 2 };
    const resolvedEvent: PendingEvent = { type: 'security.finding.resolved', data: { id: created.id } };
    expect(await findings.save(tenant, created, seenAgain, [])).toBe(true);
    expect(await findings.save(tenant, created, { ...created, status: 'resolved', revision: 2 }, [resolvedEvent])).toBe(false);
    expect(await findings.get(tenant, created.id)).toEqual(seenAgain);
    const resolved: Finding = { ...seenAgain, status: 'resolved', resolution: 'fixed', revision: 3 };
    expect(await findings.save(tenant, seenAgain, resolved, [resolvedEvent])).toBe(true);
    expect(await findings.get(tenant, created.id)).toEqual(resolved);
    expect(await subject.events(tenant)).toEqual([resolvedEvent]);
    expect(await subject.events(otherMode)).toEqual([]);
  });

  it('starts a remediation only over the revision read and while the project exists, with its events; a refused start writes nothing', async () => {
    const created = finding(0);
    await findings.create(tenant, created, []);
    const remediating = (from: Finding): Finding => ({ ...from, status: 'remediating', revision: from.revision + 1 });
    const started = (from: Finding): PendingEvent[] => [{ type: 'security.finding.remediation.started', data: { id: from.id } }];

    // The project was deleted (never stored here): the finding stays open.
    expect(await findings.startRemediation(tenant, created, remediating(created), started(created))).toBe('project_gone');
    expect(await findings.get(tenant, created.id)).toEqual(created);

    await subject.storeProject(tenant, projectId);
    const stale = { ...created, revision: created.revision - 1 };
    expect(await findings.startRemediation(tenant, stale, remediating(stale), started(stale))).toBe('changed');
    expect(await findings.get(tenant, created.id)).toEqual(created);

    // The project in the other mode does not count.
    const elsewhere = finding(1, { project_id: otherProjectId });
    await findings.create(tenant, elsewhere, []);
    await subject.storeProject(otherMode, otherProjectId);
    expect(await findings.startRemediation(tenant, elsewhere, remediating(elsewhere), started(elsewhere))).toBe('project_gone');
    expect(await subject.events(tenant)).toEqual([]);

    expect(await findings.startRemediation(tenant, created, remediating(created), started(created))).toBe('started');
    expect(await findings.get(tenant, created.id)).toEqual(remediating(created));
    expect(await subject.events(tenant)).toEqual(started(created));
    expect(await subject.events(otherMode)).toEqual([]);
  });

  it('lists by creation or by severity (most severe first), filtered, paged, with the total and a created range', async () => {
    const records = [
      finding(0, { severity: 'low' }),
      finding(1, { severity: 'critical', type: 'sast' }),
      finding(2, { severity: 'high', project_id: otherProjectId }),
      finding(3, { severity: 'critical', scan_id: laterScanId }),
      finding(4, { severity: 'info', status: 'resolved' }),
      finding(5, { severity: 'high', type: 'dependencies' }),
    ];
    for (const record of records) expect(await findings.create(tenant, record, [])).toBe(true);
    const ids = (page: { items: Finding[] }) => page.items.map((f) => f.id);
    const idsOf = (...indexes: number[]) => indexes.map((i) => records[i]!.id);

    expect(ids(await findings.list(tenant, byCreation(), {}))).toEqual(idsOf(0, 1, 2, 3, 4, 5));
    expect(ids(await findings.list(tenant, byCreation('desc'), {}))).toEqual(idsOf(5, 4, 3, 2, 1, 0));
    expect(await findings.list(otherMode, byCreation(), {})).toEqual({ items: [], total: 0 });
    expect(ids(await findings.list(tenant, bySeverity(), {}))).toEqual(idsOf(1, 3, 2, 5, 0, 4));
    expect(ids(await findings.list(tenant, bySeverity('desc'), {}))).toEqual(idsOf(4, 0, 5, 2, 3, 1));

    const ofProject = await findings.list(tenant, byCreation(), { project_id: projectId });
    expect({ ids: ids(ofProject), total: ofProject.total }).toEqual({ ids: idsOf(0, 1, 3, 4, 5), total: 5 });
    const severeOfProject = await findings.list(tenant, bySeverity('asc', { perPage: 2 }), { project_id: projectId });
    expect({ ids: ids(severeOfProject), total: severeOfProject.total }).toEqual({ ids: idsOf(1, 3), total: 5 });
    const critical = await findings.list(tenant, byCreation(), { severity: 'critical' });
    expect({ ids: ids(critical), total: critical.total }).toEqual({ ids: idsOf(1, 3), total: 2 });
    expect(ids(await findings.list(tenant, byCreation(), { status: 'resolved' }))).toEqual(idsOf(4));
    expect(ids(await findings.list(tenant, byCreation(), { type: 'secrets', status: 'open' }))).toEqual(idsOf(0, 2, 3));
    expect(ids(await findings.list(tenant, bySeverity(), { scan_id: laterScanId }))).toEqual(idsOf(3));

    const second = await findings.list(tenant, byCreation('asc', { page: 2, perPage: 4 }), {});
    expect({ ids: ids(second), total: second.total }).toEqual({ ids: idsOf(4, 5), total: 6 });
    const range = { createdFrom: minutes(1), createdUntil: minutes(4) };
    const ranged = await findings.list(tenant, byCreation('asc', range), {});
    expect({ ids: ids(ranged), total: ranged.total }).toEqual({ ids: idsOf(1, 2, 3), total: 3 });
    const rangedBySeverity = await findings.list(tenant, bySeverity('asc', range), {});
    expect({ ids: ids(rangedBySeverity), total: rangedBySeverity.total }).toEqual({ ids: idsOf(1, 3, 2), total: 3 });
  });
});
