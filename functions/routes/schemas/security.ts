import * as v from 'valibot';
import { findingStatuses } from '../../core/security/finding';
import { scanStatuses } from '../../core/security/scan';
import { scanTypes, severities } from '../../core/security/scanner';
import { jobTimestamps, timestamp } from './common';

const counts = v.object(
  Object.fromEntries(severities.map((severity) => [severity, v.number()])) as Record<
    (typeof severities)[number],
    v.NumberSchema<undefined>
  >,
);

const coverage = v.object({
  files_scanned: v.number(),
  covered: v.array(v.string()),
  not_covered: v.array(v.object({ kind: v.string(), files: v.number(), reason: v.string() })),
});

export const scanSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix scan_')),
  project_id: v.string(),
  branch: v.pipe(v.nullable(v.string()), v.description('As asked; null means the default branch.')),
  branch_scanned: v.nullable(v.string()),
  commit: v.pipe(v.nullable(v.string()), v.description('The commit scanned.')),
  scan_types: v.array(v.picklist(scanTypes)),
  status: v.picklist(scanStatuses),
  summary: v.nullable(
    v.object({
      total: v.number(),
      by_severity: counts,
      by_type: v.record(v.picklist(scanTypes), counts),
      new_findings: v.number(),
      resolved_findings: v.number(),
    }),
  ),
  coverage: v.pipe(
    v.record(v.picklist(scanTypes), coverage),
    v.description('Per scan type: files and languages covered, and what was not covered and why.'),
  ),
  errors: v.array(v.string()),
  ...jobTimestamps,
  duration_ms: v.nullable(v.number()),
});

const artifact = v.object({ location: v.string(), sha256: v.string(), size: v.number() });

export const findingSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix fnd_')),
  project_id: v.string(),
  branch: v.string(),
  scan_id: v.pipe(v.string(), v.description('The latest scan that reported it.')),
  type: v.picklist(scanTypes),
  rule_id: v.string(),
  severity: v.picklist(severities),
  title: v.string(),
  description: v.string(),
  location: v.object({ path: v.string(), line: v.nullable(v.number()) }),
  excerpt: v.pipe(v.nullable(v.string()), v.description('Redacted: a secret is never shown.')),
  details: v.record(v.string(), v.unknown()),
  fingerprint: v.pipe(v.string(), v.description('Stable across scans: rule, path and normalised snippet.')),
  first_seen_at: timestamp,
  last_seen_at: timestamp,
  status: v.picklist(findingStatuses),
  resolution: v.nullable(v.picklist(['fixed', 'remediated'])),
  resolved_at: v.nullable(timestamp),
  remediation: v.nullable(
    v.object({
      status: v.picklist(['in_progress', 'completed', 'failed']),
      method: v.nullable(v.picklist(['upgrade', 'ai'])),
      requested_at: timestamp,
      completed_at: v.nullable(timestamp),
      error: v.nullable(v.string()),
      patch: v.nullable(artifact),
      pushed_branch: v.nullable(v.string()),
    }),
  ),
  reopened_at: v.pipe(v.nullable(timestamp), v.description('When a later scan found this resolved finding again.')),
  reopen_reason: v.pipe(
    v.nullable(v.string()),
    v.description('Why it is open again: the scan that still finds it, and for a remediated finding that its patch was never applied.'),
  ),
  created_at: timestamp,
  updated_at: timestamp,
});
