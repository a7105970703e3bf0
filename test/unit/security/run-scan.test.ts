import type { FindingRepository } from '../../../functions/core/security/finding';
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
const job = (scanners: Record<string, Omit<Scanner, 'type'>>, log: string[]) => {
  let scan = queuedScan(Object.keys(scanners) as ScanType[]);
  const scans = {
    get: async () => structuredClone(scan),
    save: async (_tenant: unknown, previous: Scan, next: Scan) => {
      if (previous.revision !== scan.revision) return false;
      scan = structuredClone(next);
      return true;
    },
  } as unknown as ScanRepository;
  const findings = { ofScope: async () => [] } as unknown as FindingRepository;
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
