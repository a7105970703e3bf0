import type { Finding } from './finding';
import type { Scan } from './scan';

type ScanView = Omit<Scan, 'revision'>;
type FindingView = Omit<Finding, 'revision'>;

const scanFields: (keyof ScanView)[] = [
  'id',
  'project_id',
  'branch',
  'branch_scanned',
  'commit',
  'scan_types',
  'status',
  'summary',
  'coverage',
  'errors',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'duration_ms',
];

const findingFields: (keyof FindingView)[] = [
  'id',
  'project_id',
  'branch',
  'scan_id',
  'type',
  'rule_id',
  'severity',
  'title',
  'description',
  'location',
  'excerpt',
  'details',
  'fingerprint',
  'first_seen_at',
  'last_seen_at',
  'status',
  'resolution',
  'resolved_at',
  'remediation',
  'reopened_at',
  'reopen_reason',
  'created_at',
  'updated_at',
];

/** What the API shows, in the documented order (the table returns fields in any order). */
export const viewOfScan = (scan: Scan): ScanView =>
  Object.fromEntries(scanFields.map((field) => [field, scan[field]])) as unknown as ScanView;
export const viewOfFinding = (finding: Finding): FindingView =>
  // Findings stored before a field existed show it as null.
  Object.fromEntries(findingFields.map((field) => [field, finding[field] ?? null])) as unknown as FindingView;
