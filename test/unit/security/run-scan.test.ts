import { type Finding, type FindingRepository, type ScopeClaim, ScopeSupersededError } from '../../../functions/core/security/finding';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import type { SecurityJobDeps } from '../../../functions/core/security/job-deps';
import { runScan } from '../../../functions/core/security/run-scan';
import type { Scan, ScanRepository } from '../../../functions/core/security/scan';
import type { Scanner, ScanType } from '../../../functions/core/security/scanner';
import type { Project } from '../../../functions/core/projects/project';
import { controlledClock } from '../fakes/clock';

const ref = { account_id: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' as const, id: 'scan_1' };
const at = '2026-11-21T10:00:00.000Z';

const queuedScan = (scanTypes: ScanType[]): Scan => ({
  id: 'scan_1',
  project_id: 'prj_1',
  branch: 'main',
  branch_scanned: null,
  commit: null,
  scan_types: scanTypes,
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
});

/** A job's dependencies around one queued scan; `log` records the order of checkout, prepare and scan. */
const job = (
  scanners: Record<string, Omit<Scanner, 'type'>>,
  log: string[],
  findings = { ofScope: async () => [], claimScope: async () => true } as unknown as FindingRepository,
) => {
  let scan = queuedScan(Object.keys(scanners) as ScanType[]);
  const scans = {
    get: async () => structuredClone(scan),
    save: async (_tenant: unknown, previous: Scan, next: Scan) => {
      if (previous.revision !== scan.revision) return false;
      scan = structuredClone(next);
      return true;
    },
  } as unknown as ScanRepository;
  const deps = {
    scans,
    findings,
    projects: { get: async () => ({ id: 'prj_1', repository: 'https://git.example/repo.git' }) as Project },
    clock: controlledClock(),
    repository: {
      checkout: async () => {
        log.push('checkout');
        return { branch: 'main', commit: 'a'.repeat(40) };
      },
    },
    scratch: { create: async () => ({ dir: '/scratch/scan-1', dispose: async () => undefined }) },
    scanner: (type: ScanType): Scanner => ({ type, ...scanners[type]! }),
  } as unknown as SecurityJobDeps;
  return { deps, scan: () => scan };
};

const emptyResult = { findings: [], coverage: { files_scanned: 0, covered: [], not_covered: [] }, errors: [] };

describe('a scan job', () => {
  it('prepares each scanner asked for before the checkout, and scans after it', async () => {
    const log: string[] = [];
    const scanner = (type: string): Omit<Scanner, 'type'> => ({
      prepare: () => log.push(`prepare ${type}`),
      scan: async () => {
        log.push(`scan ${type}`);
        return emptyResult;
      },
    });
    const { deps, scan } = job({ sast: scanner('sast'), secrets: scanner('secrets') }, log);

    await runScan(deps, ref);

    expect(log).toEqual(['prepare sast', 'prepare secrets', 'checkout', 'scan sast', 'scan secrets']);
    expect(scan().status).toBe('completed');
  });

  it('runs scanners that have nothing to prepare', async () => {
    const log: string[] = [];
    const { deps, scan } = job({ secrets: { scan: async () => (log.push('scan secrets'), emptyResult) } }, log);

    await runScan(deps, ref);

    expect(log).toEqual(['checkout', 'scan secrets']);
    expect(scan().status).toBe('completed');
  });
});

const openFinding = (): Finding => ({
  id: 'fnd_1',
  project_id: 'prj_1',
  branch: 'main',
  scan_id: 'scan_0',
  type: 'secrets',
  rule_id: 'secretlint/database-connection-string',
  severity: 'high',
  title: 'A database URL with a password',
  description: 'A password in a connection string.',
  location: { path: 'config.js', line: 1 },
  excerpt: 'postgres://admin:***@db',
  details: {},
  fingerprint: 'f'.repeat(32),
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
});

const remediating = (finding: Finding): Finding => ({
  ...finding,
  status: 'remediating',
  remediation: {
    status: 'in_progress',
    method: null,
    requested_at: at,
    completed_at: null,
    error: null,
    patch: null,
    pushed_branch: null,
  },
  revision: finding.revision + 1,
});

/** One stored finding, written only on the revision read (as the table's condition does); `scoped` is what the scan reads first. */
const oneFinding = (stored: Finding, scoped: Finding = stored, holder: { claim: string | null } = { claim: null }) => {
  let finding = structuredClone(stored);
  const events: PendingEvent[] = [];
  const claims: string[] = [];
  const held = (claim?: ScopeClaim) => {
    if (claim && holder.claim !== `${claim.checkoutStartedAt} ${claim.scanId}`) throw new ScopeSupersededError();
  };
  const repository = {
    claimScope: async (_tenant: unknown, _project: string, _branch: string, _type: string, claim: ScopeClaim) => {
      const mine = `${claim.checkoutStartedAt} ${claim.scanId}`;
      claims.push(mine);
      if (holder.claim !== null && holder.claim > mine) return false;
      holder.claim = mine;
      return true;
    },
    ofScope: async () => [structuredClone(scoped)],
    get: async () => structuredClone(finding),
    save: async (_tenant: unknown, previous: Finding, next: Finding, written: PendingEvent[], claim?: ScopeClaim) => {
      held(claim);
      if (previous.revision !== finding.revision) return false;
      finding = structuredClone(next);
      events.push(...written);
      return true;
    },
  } as unknown as FindingRepository;
  return { repository, finding: () => finding, events, claims };
};

describe('a scan that no longer finds a finding', () => {
  const scanningNothing = { secrets: { scan: async () => emptyResult } };

  it('resolves one being remediated as fixed and ends its remediation, so nothing is left in progress', async () => {
    const findings = oneFinding(remediating(openFinding()));
    const { deps, scan } = job(scanningNothing, [], findings.repository);

    await runScan(deps, ref);

    expect(findings.finding()).toMatchObject({
      status: 'resolved',
      resolution: 'fixed',
      remediation: { status: 'failed', error: expect.stringContaining('scan scan_1 of main') },
    });
    expect(findings.finding().remediation?.completed_at).not.toBeNull();
    expect(findings.events).toEqual([{ type: 'security.finding.resolved', data: expect.objectContaining({ status: 'resolved' }) }]);
    expect(scan().summary?.resolved_findings).toBe(1);
  });

  it('resolves one that changed after the scan read it (a remediation starting), with its event', async () => {
    const findings = oneFinding(remediating(openFinding()), openFinding());
    const { deps, scan } = job(scanningNothing, [], findings.repository);

    await runScan(deps, ref);

    expect(findings.finding()).toMatchObject({ status: 'resolved', resolution: 'fixed', remediation: { status: 'failed' } });
    expect(findings.events.map((event) => event.type)).toEqual(['security.finding.resolved']);
    expect(scan().summary?.resolved_findings).toBe(1);
  });

  it('leaves open one that another scan saw after this one read it', async () => {
    const seenAgain = { ...openFinding(), last_seen_at: '2026-11-21T10:05:00.000Z', revision: 2 };
    const findings = oneFinding(seenAgain, openFinding());
    const { deps, scan } = job(scanningNothing, [], findings.repository);

    await runScan(deps, ref);

    expect(findings.finding()).toEqual(seenAgain);
    expect(findings.events).toEqual([]);
    expect(scan().summary?.resolved_findings).toBe(0);
  });
});

describe('a scan of an older view of the branch', () => {
  const scanningNothing = { secrets: { scan: async () => emptyResult } };

  it('changes no finding once a scan whose checkout began later holds them, and says so', async () => {
    // A later checkout (10:05) took the scope first; this scan checked out at 10:00 (the clock of the job).
    const findings = oneFinding(openFinding(), openFinding(), { claim: '2026-11-21T10:05:00.000Z scan_2' });
    const { deps, scan } = job(scanningNothing, [], findings.repository);

    await runScan(deps, ref);

    expect(findings.finding()).toEqual(openFinding());
    expect(findings.events).toEqual([]);
    expect(scan()).toMatchObject({ status: 'completed', summary: { resolved_findings: 0 } });
    expect(scan().errors).toEqual([expect.stringMatching(/^secrets: findings not updated: a scan whose checkout of main began after/)]);
  });

  it('stops when a scan whose checkout began later takes the scope while it works', async () => {
    const holder = { claim: null as string | null };
    const findings = oneFinding(openFinding(), openFinding(), holder);
    const repository = findings.repository;
    // The later scan claims between this one's read of the findings and its write.
    repository.ofScope = async () => {
      const scoped = [openFinding()];
      holder.claim = '2026-11-21T10:05:00.000Z scan_2';
      return scoped;
    };
    const { deps, scan } = job(scanningNothing, [], repository);

    await runScan(deps, ref);

    expect(findings.claims).toHaveLength(1);
    expect(findings.finding()).toEqual(openFinding());
    expect(findings.events).toEqual([]);
    expect(scan().status).toBe('completed');
    expect(scan().errors).toEqual([expect.stringContaining('findings not updated')]);
  });

  it('takes the scope with the time its checkout began, before it reads the findings', async () => {
    const findings = oneFinding(openFinding());
    const { deps } = job(scanningNothing, [], findings.repository);

    await runScan(deps, ref);

    expect(findings.claims).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z scan_1$/)]);
    expect(findings.finding().status).toBe('resolved');
  });
});
