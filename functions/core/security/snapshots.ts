import type { Finding } from './finding';
import type { Scan } from './scan';

/** Event data: the scan after the change. */
export const scanSnapshot = (scan: Scan): Record<string, unknown> => ({
  id: scan.id,
  project_id: scan.project_id,
  status: scan.status,
  scan_types: scan.scan_types,
  branch: scan.branch_scanned ?? scan.branch,
  commit: scan.commit,
  summary: scan.summary,
  errors: scan.errors,
  created_at: scan.created_at,
  started_at: scan.started_at,
  completed_at: scan.completed_at,
  duration_ms: scan.duration_ms,
});

/** Event data: the finding after the change (its excerpt is redacted already). */
export const findingSnapshot = (finding: Finding): Record<string, unknown> => ({
  id: finding.id,
  scan_id: finding.scan_id,
  project_id: finding.project_id,
  branch: finding.branch,
  type: finding.type,
  rule_id: finding.rule_id,
  severity: finding.severity,
  status: finding.status,
  resolution: finding.resolution,
  title: finding.title,
  location: finding.location,
  fingerprint: finding.fingerprint,
  first_seen_at: finding.first_seen_at,
  last_seen_at: finding.last_seen_at,
  reopened_at: finding.reopened_at,
  reopen_reason: finding.reopen_reason,
  created_at: finding.created_at,
});
