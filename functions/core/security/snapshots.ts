import type { Finding } from './finding';
import type { Scan } from './scan';
import { viewOfFinding } from './views';

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

/**
 * Event data: the finding after the change, as the API shows it (its excerpt is redacted already;
 * a finding stored before a field existed shows it as null, as GET does).
 */
export const findingSnapshot = (finding: Finding): Record<string, unknown> => {
  const view = viewOfFinding(finding);
  return {
    id: view.id,
    scan_id: view.scan_id,
    project_id: view.project_id,
    branch: view.branch,
    type: view.type,
    rule_id: view.rule_id,
    severity: view.severity,
    status: view.status,
    resolution: view.resolution,
    remediation: view.remediation,
    title: view.title,
    location: view.location,
    fingerprint: view.fingerprint,
    first_seen_at: view.first_seen_at,
    last_seen_at: view.last_seen_at,
    reopened_at: view.reopened_at,
    reopen_reason: view.reopen_reason,
    created_at: view.created_at,
  };
};
