import { type Clock, isoTime } from '../clock';
import { conflict, notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { Finding, FindingFilters, FindingRepository, FindingSort } from './finding';
import type { Scan, ScanRepository, ScanStatus } from './scan';
import type { ScanType } from './scanner';
import type { SecurityJobs } from './security-jobs';
import { remediationFailed } from './remediate';
import { findingSnapshot, scanSnapshot } from './snapshots';

export interface SecurityDeps {
  scans: ScanRepository;
  findings: FindingRepository;
  jobs: SecurityJobs;
  clock: Clock;
}

export const createScan = async (
  tenant: Tenant,
  input: { project_id: string; scan_types: ScanType[]; branch?: string },
  deps: SecurityDeps,
): Promise<Scan> => {
  const unknownProject = validationError([{ field: 'project_id', issue: 'is not a project of this account and mode' }]);
  if (!isId('project', input.project_id)) throw unknownProject;
  const now = deps.clock.now();
  const at = isoTime(now);
  const scan: Scan = {
    id: newId('scan', now),
    project_id: input.project_id,
    branch: input.branch ?? null,
    branch_scanned: null,
    commit: null,
    // Each type once, in the documented order.
    scan_types: (['sast', 'secrets', 'dependencies'] as const).filter((type) => input.scan_types.includes(type)),
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
  };
  if (!(await deps.scans.create(tenant, scan))) throw unknownProject;
  try {
    await deps.jobs.start({ action: 'scan', ref: { account_id: tenant.accountId, mode: tenant.mode, id: scan.id } });
  } catch {
    const failed: Scan = {
      ...scan,
      status: 'failed',
      errors: ['The scan could not be started; create it again.'],
      completed_at: at,
      updated_at: at,
      revision: 2,
    };
    if (await deps.scans.save(tenant, scan, failed, [{ type: 'security.scan.completed', data: scanSnapshot(failed) }])) return failed;
  }
  return scan;
};

const checkedScanId = (id: string): string => {
  if (!isId('scan', id)) throw notFound('Scan');
  return id;
};

const checkedFindingId = (id: string): string => {
  if (!isId('finding', id)) throw notFound('Finding');
  return id;
};

export const getScan = async (tenant: Tenant, id: string, deps: { scans: Pick<ScanRepository, 'get'> }): Promise<Scan> => {
  const scan = await deps.scans.get(tenant, checkedScanId(id));
  if (!scan) throw notFound('Scan');
  return scan;
};

export const listScans = (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: { project_id?: string; status?: ScanStatus },
  deps: { scans: Pick<ScanRepository, 'list'> },
): Promise<Page<Scan>> => {
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.scans.list(tenant, query, filters);
};

export const getFinding = async (tenant: Tenant, id: string, deps: { findings: Pick<FindingRepository, 'get'> }): Promise<Finding> => {
  const finding = await deps.findings.get(tenant, checkedFindingId(id));
  if (!finding) throw notFound('Finding');
  return finding;
};

export const listFindings = (
  tenant: Tenant,
  query: ListQuery<FindingSort>,
  filters: FindingFilters,
  deps: { findings: Pick<FindingRepository, 'list'> },
): Promise<Page<Finding>> => {
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  if (filters.scan_id !== undefined && !isId('scan', filters.scan_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.findings.list(tenant, query, filters);
};

/**
 * Starts remediating an open finding (`security.finding.remediation.started`): 409 unless it is
 * open. A job that cannot be started fails the remediation at once, with its event.
 */
export const requestRemediation = async (tenant: Tenant, id: string, deps: SecurityDeps): Promise<Finding> => {
  const finding = await getFinding(tenant, id, deps);
  if (finding.status !== 'open') throw conflict(`The finding is ${finding.status}; only an open finding can be remediated.`);
  const at = isoTime(deps.clock.now());
  const next: Finding = {
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
    updated_at: at,
    revision: finding.revision + 1,
  };
  const stored = await deps.findings.startRemediation(tenant, finding, next, [
    { type: 'security.finding.remediation.started', data: findingSnapshot(next) },
  ]);
  if (stored === 'changed') throw conflict('The finding changed meanwhile; read it again and retry.');
  if (stored === 'project_gone')
    throw conflict(`The finding's project ${finding.project_id} was deleted; its findings can no longer be remediated.`);
  try {
    await deps.jobs.start({ action: 'remediate', ref: { account_id: tenant.accountId, mode: tenant.mode, id: finding.id } });
  } catch {
    return remediationFailed(deps, tenant, finding.id, 'The remediation could not be started; try again.');
  }
  return next;
};
