import { createHash } from 'node:crypto';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { ArtifactRef, PendingEvent } from '../workflows/workflow';
import type { RawFinding, ScanType, Severity } from './scanner';

export const findingStatuses = ['open', 'remediating', 'resolved'] as const;
export type FindingStatus = (typeof findingStatuses)[number];

export const findingSortFields = ['created_at', 'severity'] as const;
export type FindingSort = (typeof findingSortFields)[number];

export interface Remediation {
  status: 'in_progress' | 'completed' | 'failed';
  /** `upgrade`: the mechanical version bump; `ai`: a patch proposed by an AI provider. */
  method: 'upgrade' | 'ai' | null;
  requested_at: string;
  completed_at: string | null;
  error: string | null;
  /** The verified patch (unified diff) in the artifact store. */
  patch: ArtifactRef | null;
  pushed_branch: string | null;
}

export interface Finding {
  id: string;
  project_id: string;
  branch: string;
  /** The latest scan that reported it. */
  scan_id: string;
  type: ScanType;
  rule_id: string;
  severity: Severity;
  title: string;
  description: string;
  location: { path: string; line: number | null };
  excerpt: string | null;
  details: Record<string, unknown>;
  /** Stable across scans: the rule, the path and the normalised snippet. */
  fingerprint: string;
  first_seen_at: string;
  last_seen_at: string;
  status: FindingStatus;
  resolution: 'fixed' | 'remediated' | null;
  resolved_at: string | null;
  remediation: Remediation | null;
  /** When a later scan found a resolved finding again, and why it is open once more. */
  reopened_at: string | null;
  reopen_reason: string | null;
  created_at: string;
  updated_at: string;
  revision: number;
}

export const fingerprintOf = (raw: Pick<RawFinding, 'type' | 'rule_id' | 'location' | 'snippet'>): string =>
  createHash('sha256').update([raw.type, raw.rule_id, raw.location.path, raw.snippet].join('\n')).digest('hex').slice(0, 32);

/** Sorts most severe first in an ascending key. */
export const severityRank: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

export interface FindingFilters {
  severity?: Severity;
  status?: FindingStatus;
  project_id?: string;
  type?: ScanType;
  scan_id?: string;
}

/**
 * Which scan may change the findings of a project, branch and scan type: the one whose checkout
 * began last (then the greater scan id), so a scan of an older view of the branch that finishes
 * after a newer one never undoes what the newer one found.
 */
export interface ScopeClaim {
  scanId: string;
  checkoutStartedAt: string;
}

/** Thrown by a claimed write once a scan whose checkout began later holds the scope. */
export class ScopeSupersededError extends Error {
  constructor() {
    super('a scan whose checkout began later holds these findings');
    this.name = 'ScopeSupersededError';
  }
}

export interface FindingRepository {
  get(tenant: Tenant, id: string): Promise<Finding | undefined>;
  list(tenant: Tenant, query: ListQuery<FindingSort>, filters: FindingFilters): Promise<Page<Finding>>;
  /** Every finding (any status) of a project, branch and scan type: what a scan is compared with. */
  ofScope(tenant: Tenant, projectId: string, branch: string, type: ScanType): Promise<Finding[]>;
  /**
   * Takes the finding's scope for a scan, unless a scan whose checkout began later holds it
   * (false). A scan's claimed writes go through only while it still holds the scope.
   */
  claimScope(tenant: Tenant, projectId: string, branch: string, type: ScanType, claim: ScopeClaim): Promise<boolean>;
  /**
   * Stores one finding change with its events in one transaction: a new finding (false when its
   * fingerprint exists already in the scope), or a change conditional on the revision read. With
   * a `claim`, only while that scan holds the finding's scope: else `ScopeSupersededError`.
   */
  create(tenant: Tenant, finding: Finding, events: PendingEvent[], claim?: ScopeClaim): Promise<boolean>;
  save(tenant: Tenant, previous: Finding, next: Finding, events: PendingEvent[], claim?: ScopeClaim): Promise<boolean>;
  /** `save` for the start of a remediation, with its events, which also needs the finding's project to exist still. */
  startRemediation(
    tenant: Tenant,
    previous: Finding,
    next: Finding,
    events: PendingEvent[],
  ): Promise<'started' | 'changed' | 'project_gone'>;
}
