import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';
import type { Finding } from './finding';
import { type Coverage, type ScanType, type Severity, severities } from './scanner';

export const scanStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ScanStatus = (typeof scanStatuses)[number];

export type SeverityCounts = Record<Severity, number>;

export const zeroCounts = (): SeverityCounts => Object.fromEntries(severities.map((severity) => [severity, 0])) as SeverityCounts;

export interface ScanSummary {
  /** Findings this scan reported. */
  total: number;
  by_severity: SeverityCounts;
  by_type: Partial<Record<ScanType, SeverityCounts>>;
  /** Findings seen for the first time. */
  new_findings: number;
  /** Open findings of earlier scans this one no longer reported (now resolved, `fixed`). */
  resolved_findings: number;
}

export interface Scan {
  id: string;
  project_id: string;
  /** As asked; null means the repository's default branch (then `branch_scanned` says which). */
  branch: string | null;
  branch_scanned: string | null;
  commit: string | null;
  scan_types: ScanType[];
  status: ScanStatus;
  summary: ScanSummary | null;
  /** Per scan type: files and languages covered, and what was not covered and why. */
  coverage: Partial<Record<ScanType, Coverage>>;
  errors: string[];
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  revision: number;
}

export interface ScanRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

export interface FindingChanges {
  created: Finding[];
  /** Existing findings seen again (last_seen_at, scan_id…), each with the revision it was read at. */
  updated: Array<{ previous: Finding; next: Finding }>;
  resolved: Array<{ previous: Finding; next: Finding }>;
}

export interface ScanRepository {
  /** False when the project does not exist (nothing written). */
  create(tenant: Tenant, scan: Scan): Promise<boolean>;
  get(tenant: Tenant, id: string): Promise<Scan | undefined>;
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: { project_id?: string; status?: ScanStatus }): Promise<Page<Scan>>;
  /** Replaces the scan if still at `previous.revision`, with its events, in one transaction. */
  save(tenant: Tenant, previous: Scan, next: Scan, events: PendingEvent[]): Promise<boolean>;
}
