import * as v from 'valibot';
import { findingSortFields, findingStatuses } from '../../core/security/finding';
import { scanStatuses } from '../../core/security/scan';
import { scanTypes, severities } from '../../core/security/scanner';
import { listQuery, picklistParam, timestamp } from './common';

const branch = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 255 characters'),
  v.maxLength(255, 'must be 1 to 255 characters'),
  v.regex(/^(?!\/|.*\/\/|.*\.\.|.*@\{|.*\/$|.*\.lock$|.*\.$)[^\s~^:?*[\\\u0000-\u001f\u007f]+$/, 'must be a valid git branch name'),
  v.description("Branch to scan; the repository's default branch when absent."),
);

export const createScanBody = v.strictObject({
  project_id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.description('A project of your account and mode (proj_…).'),
  ),
  scan_types: v.pipe(
    v.array(v.picklist(scanTypes, `must each be one of ${scanTypes.join(', ')}`), 'must be an array of scan types'),
    v.minLength(1, `must name at least one of ${scanTypes.join(', ')}`),
    v.check((types) => new Set(types).size === types.length, 'must not name a scan type twice'),
  ),
  branch: v.optional(branch),
});

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
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
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
  created_at: timestamp,
  updated_at: timestamp,
});

export const listScansQuery = listQuery(['created_at'] as const, {
  project_id: v.optional(v.pipe(v.string(), v.description("Only this project's scans."))),
  status: v.optional(picklistParam(scanStatuses, 'Only scans in this status.')),
});

export const listFindingsQuery = listQuery(findingSortFields, {
  severity: v.optional(picklistParam(severities, 'Only findings of this severity.')),
  status: v.optional(picklistParam(findingStatuses, 'Only findings in this status.')),
  project_id: v.optional(v.pipe(v.string(), v.description("Only this project's findings."))),
  type: v.optional(picklistParam(scanTypes, 'Only findings of this scan type.')),
  scan_id: v.optional(v.pipe(v.string(), v.description('Only findings whose latest scan is this one.'))),
});
