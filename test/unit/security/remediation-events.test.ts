import { isoTime } from '../../../functions/core/clock';
import type { Project } from '../../../functions/core/projects/project';
import { type Finding, type FindingRepository, fingerprintOf } from '../../../functions/core/security/finding';
import type { SecurityJobDeps } from '../../../functions/core/security/job-deps';
import { runRemediation } from '../../../functions/core/security/remediate';
import type { RawFinding, Scanner } from '../../../functions/core/security/scanner';
import type { SecurityJob } from '../../../functions/core/security/security-jobs';
import { requestRemediation } from '../../../functions/core/security/security-use-cases';
import type { Tenant } from '../../../functions/core/tenancy';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { controlledClock, startOfTests } from '../fakes/clock';
import { fakeCheckout, tempScratch } from '../fakes/test-checkout';

const tenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
const ref = { account_id: tenant.accountId, mode: tenant.mode };
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';
const findingId = 'fnd_01JD2QB2G6H8J0K2M4N6P8R0S2';
const at = isoTime(startOfTests - 60_000);

const raw: RawFinding = {
  type: 'dependencies',
  rule_id: 'GHSA-pas-0001',
  severity: 'critical',
  title: 'Remote code execution in left-pad',
  description: 'Versions before 1.2.5 evaluate untrusted input.',
  location: { path: 'package-lock.json', line: null },
  snippet: 'left-pad@1.2.0',
  excerpt: null,
  details: { package: 'left-pad', installed: '1.2.0', fixed: '1.2.5' },
};

const openFinding: Finding = {
  id: findingId,
  project_id: projectId,
  branch: 'main',
  scan_id: 'scan_01JD2QA1F5G7H9J1K3M5N7P9Q1',
  type: raw.type,
  rule_id: raw.rule_id,
  severity: raw.severity,
  title: raw.title,
  description: raw.description,
  location: raw.location,
  excerpt: raw.excerpt,
  details: raw.details,
  fingerprint: fingerprintOf(raw),
  first_seen_at: at,
  last_seen_at: at,
  status: 'open',
  resolution: null,
  resolved_at: null,
  remediation: null,
  reopened_at: null,
  reopen_reason: null,
  created_at: at,
  updated_at: at,
  revision: 1,
};

/**
 * The finding's record with the DynamoDB adapter's rules (held by test/contract/finding-repository):
 * a write goes through only over the revision it read, with its events in the same write; a
 * remediation starts only while the project exists.
 */
const findingStore = (initial: Finding = openFinding) => {
  let stored = structuredClone(initial);
  let projectExists = true;
  const events: PendingEvent[] = [];
  /** Runs before each write's revision check, as a concurrent writer would. */
  let interfere: ((current: Finding) => Finding) | undefined;
  const write = (previous: Finding, next: Finding, pending: PendingEvent[]) => {
    if (interfere) stored = interfere(structuredClone(stored));
    if (stored.revision !== previous.revision) return false;
    stored = structuredClone(next);
    events.push(...structuredClone(pending));
    return true;
  };
  const findings = {
    get: async (_tenant: Tenant, id: string) => (id === stored.id ? structuredClone(stored) : undefined),
    save: async (_tenant: Tenant, previous: Finding, next: Finding, pending: PendingEvent[]) => write(previous, next, pending),
    startRemediation: async (_tenant: Tenant, previous: Finding, next: Finding, pending: PendingEvent[]) => {
      if (!projectExists) return 'project_gone';
      return write(previous, next, pending) ? 'started' : 'changed';
    },
  } as unknown as FindingRepository;
  return {
    findings,
    events,
    stored: () => stored,
    deleteProject: () => {
      projectExists = false;
    },
    interfere: (change: ((current: Finding) => Finding) | undefined) => {
      interfere = change;
    },
  };
};

const scratches: ReturnType<typeof tempScratch>[] = [];
afterAll(() => Promise.all(scratches.map((scratch) => scratch.removeAll())));

/** A remediation job's dependencies: the mechanical upgrade of the finding's dependency, re-scanned by `rescan`. */
const jobDeps = (store: ReturnType<typeof findingStore>, rescan: RawFinding[] = []) => {
  const scratch = tempScratch();
  scratches.push(scratch);
  const project = { id: projectId, repository: 'https://git.example/shop.git' } as Project;
  const deps = {
    findings: store.findings,
    projects: { get: async (_tenant: Tenant, id: string) => (id === projectId ? project : undefined) },
    clock: controlledClock(),
    repository: fakeCheckout({ 'package.json': '{"dependencies":{"left-pad":"^1.2.0"}}\n' }),
    scratch,
    planUpgrade: async () => [{ path: 'package.json', content: '{"dependencies":{"left-pad":"^1.2.5"}}\n' }],
    scanner: (type: RawFinding['type']): Scanner => ({
      type,
      scan: async () => ({ findings: rescan, coverage: { files_scanned: 1, covered: [], not_covered: [] }, errors: [] }),
    }),
    artifacts: {
      put: async (key: string, body: string) => ({ location: `artifacts/${key}`, sha256: 'ab'.repeat(32), size: body.length }),
    },
    maskSecrets: async (text: string) => text,
  } as unknown as SecurityJobDeps;
  return deps;
};

const started = async (store: ReturnType<typeof findingStore>) => {
  const jobs: SecurityJob[] = [];
  const deps = {
    scans: {} as never,
    findings: store.findings,
    clock: controlledClock(),
    jobs: { start: async (job: SecurityJob) => void jobs.push(job) },
  };
  const finding = await requestRemediation(tenant, findingId, deps);
  return { finding, jobs };
};

describe("a finding's remediation tells each of its moves once, in the write that makes it", () => {
  it('starting: the finding is remediating, with security.finding.remediation.started and the job', async () => {
    const store = findingStore();
    const { finding, jobs } = await started(store);
    expect(finding).toMatchObject({ status: 'remediating', remediation: { status: 'in_progress' } });
    expect(jobs).toEqual([{ action: 'remediate', ref: { ...ref, id: findingId } }]);
    expect(store.events).toEqual([
      {
        type: 'security.finding.remediation.started',
        data: expect.objectContaining({
          id: findingId,
          status: 'remediating',
          resolution: null,
          remediation: {
            status: 'in_progress',
            method: null,
            requested_at: isoTime(startOfTests),
            completed_at: null,
            error: null,
            patch: null,
            pushed_branch: null,
          },
        }),
      },
    ]);
  });

  it('a start that is refused (not open, changed meanwhile, project deleted) tells nothing', async () => {
    const resolved = findingStore({ ...openFinding, status: 'resolved', resolution: 'fixed' });
    await expect(started(resolved)).rejects.toMatchObject({ code: 'conflict' });
    const changing = findingStore();
    changing.interfere((current) => ({ ...current, revision: current.revision + 1 }));
    await expect(started(changing)).rejects.toMatchObject({ code: 'conflict' });
    const orphan = findingStore();
    orphan.deleteProject();
    await expect(started(orphan)).rejects.toMatchObject({ code: 'conflict' });
    expect([...resolved.events, ...changing.events, ...orphan.events]).toEqual([]);
  });

  it('a job that cannot be started: started, then failed with the finding open again', async () => {
    const store = findingStore();
    const deps = {
      scans: {} as never,
      findings: store.findings,
      clock: controlledClock(),
      jobs: {
        start: async () => {
          throw new Error('throttled');
        },
      },
    };
    const finding = await requestRemediation(tenant, findingId, deps);
    expect(finding).toMatchObject({
      status: 'open',
      remediation: { status: 'failed', error: 'The remediation could not be started; try again.' },
    });
    expect(store.events.map(({ type, data }) => [type, data.status])).toEqual([
      ['security.finding.remediation.started', 'remediating'],
      ['security.finding.remediation.failed', 'open'],
    ]);
    expect(store.events[1]?.data).toEqual(
      expect.objectContaining({ remediation: expect.objectContaining({ status: 'failed', error: finding.remediation?.error }) }),
    );
  });

  it('a verified patch resolves it with security.finding.resolved alone: the end is told once', async () => {
    const store = findingStore();
    await started(store);
    const result = await runRemediation(jobDeps(store), { ...ref, id: findingId });
    expect(result).toMatchObject({ status: 'resolved', resolution: 'remediated', remediation: { status: 'completed', method: 'upgrade' } });
    expect(store.events.map(({ type }) => type)).toEqual(['security.finding.remediation.started', 'security.finding.resolved']);
    expect(store.events[1]?.data).toEqual(
      expect.objectContaining({
        id: findingId,
        status: 'resolved',
        resolution: 'remediated',
        remediation: expect.objectContaining({
          status: 'completed',
          method: 'upgrade',
          error: null,
          patch: expect.objectContaining({ location: expect.stringContaining(`${findingId}/remediation.patch`) }),
        }),
      }),
    );
  });

  it('a patch the scanner still reports fails it, with security.finding.remediation.failed and the reason', async () => {
    const store = findingStore();
    await started(store);
    const result = await runRemediation(jobDeps(store, [raw]), { ...ref, id: findingId });
    const reason = 'the upgrade was verified by re-running the dependencies scanner, which still reports the finding';
    expect(result).toMatchObject({ status: 'open', remediation: { status: 'failed', error: reason } });
    expect(store.events.map(({ type }) => type)).toEqual(['security.finding.remediation.started', 'security.finding.remediation.failed']);
    expect(store.events[1]?.data).toEqual(
      expect.objectContaining({ status: 'open', remediation: expect.objectContaining({ status: 'failed', error: reason }) }),
    );
  });

  it('a job whose project is gone fails it with its event', async () => {
    const store = findingStore({ ...openFinding, project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6H' });
    await started(store);
    await runRemediation(jobDeps(store), { ...ref, id: findingId });
    expect(store.events.map(({ type }) => type)).toEqual(['security.finding.remediation.started', 'security.finding.remediation.failed']);
    expect(store.stored()).toMatchObject({
      status: 'open',
      remediation: { error: 'project proj_01JD2Q8X4B6V3C1N0M9K8J7H6H no longer exists' },
    });
  });

  it('a finding a scan resolved while the job ran: the job tells nothing more (the scan’s security.finding.resolved told that end)', async () => {
    const store = findingStore();
    await started(store);
    const deps = jobDeps(store);
    const checkout = deps.repository.checkout.bind(deps.repository);
    deps.repository.checkout = async (request) => {
      const checkedOut = await checkout(request);
      // What a scan that no longer finds it writes (run-scan.ts), with its own event, not recorded here.
      store.interfere((current) =>
        current.status === 'remediating'
          ? {
              ...current,
              status: 'resolved',
              resolution: 'fixed',
              remediation: current.remediation && { ...current.remediation, status: 'failed', error: 'stopped' },
              revision: current.revision + 1,
            }
          : current,
      );
      return checkedOut;
    };
    const result = await runRemediation(deps, { ...ref, id: findingId });
    expect(result).toMatchObject({ status: 'resolved', resolution: 'fixed', remediation: { status: 'failed', error: 'stopped' } });
    expect(store.events.map(({ type }) => type)).toEqual(['security.finding.remediation.started']);
  });
});
