import type { SuccessBody } from '@project-automation-service/sdk';
import {
  argument,
  type CommandContext,
  type CommandGroup,
  listOption,
  listOptions,
  pageQuery,
  jobListOptions,
  jobListQuery,
  optionalString,
  required,
  idempotencyOption,
} from './command';
import { severities } from '../../functions/core/security/scanner';
import { printList, readList } from './list-result';
import { type JobTimes, jobTime, table } from './output';
import { interrupted, pollUntil } from './watch';

type Scan = JobTimes & {
  id: string;
  project_id: string;
  created_at: string;
  status: string;
  scan_types: string[];
  summary: { total: number; by_severity?: Record<string, number>; new?: number; resolved?: number } | null;
  errors?: unknown[];
};
type Finding = {
  id: string;
  severity: string;
  status: string;
  type: string;
  title: string;
  location?: { path?: string; line?: number | null };
};
type FindingView = SuccessBody<'/v1/security/findings/{id}', 'get'>['data'];

const readFinding = async (context: CommandContext, id: string): Promise<FindingView> =>
  (await context.api.get('/v1/security/findings/{id}', { params: { path: { id } } })).data;

const whereOf = (location: Finding['location']): string =>
  location?.path ? `${location.path}${location.line ? `:${location.line}` : ''}` : '';

/** A finding as a person reads it: what, where, and how its latest remediation went (with the next step). */
const describeFinding = (finding: FindingView): string => {
  const remediation = finding.remediation;
  const lines = [
    `${finding.id}  ${finding.severity}  ${finding.status}${finding.resolution ? ` (${finding.resolution})` : ''}  ${finding.type}`,
    `${finding.title} at ${whereOf(finding.location)}`,
    finding.description,
  ];
  if (finding.excerpt) lines.push('', `  ${finding.excerpt}`);
  if (finding.status === 'open' && finding.reopen_reason) lines.push('', `Reopened: ${finding.reopen_reason}`);
  if (remediation) {
    lines.push('', `Latest remediation ${remediation.status}${remediation.method ? ` (${remediation.method})` : ''}.`);
    if (remediation.error) lines.push(`  ${remediation.error}`);
    if (remediation.patch) lines.push(`  patch: findings patch ${finding.id}`);
    if (remediation.pushed_branch) lines.push(`  pushed: ${remediation.pushed_branch}`);
  }
  if (finding.status === 'open') lines.push('', `Fix it: findings remediate ${finding.id} --watch`);
  return lines.join('\n');
};

const readScan = async (context: CommandContext, id: string): Promise<Scan> =>
  (await context.api.get('/v1/security/scans/{id}', { params: { path: { id } } })).data as Scan;

/** A scan's counts by severity, most severe first: `2 critical, 1 high`. */
const severityCounts = (counts: Record<string, number>): string =>
  severities
    .filter((severity) => counts[severity])
    .map((severity) => `${counts[severity]} ${severity}`)
    .join(', ');

const describeScan = (scan: Scan) =>
  [
    `Scan ${scan.id} ${scan.status} (${scan.scan_types.join(', ')}).`,
    scan.summary
      ? `  ${scan.summary.total} finding${scan.summary.total === 1 ? '' : 's'}${scan.summary.total > 0 && scan.summary.by_severity ? `: ${severityCounts(scan.summary.by_severity)}` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');

export const scans: CommandGroup = {
  name: 'scans',
  summary: 'run security scans and read them',
  commands: {
    create: {
      summary: 'scan a project',
      options: {
        project: { type: 'string', description: 'the project id (required)' },
        types: { type: 'string', description: 'comma list of secrets, dependencies, sast (default: all three)' },
        branch: { type: 'string', description: 'git branch (default: the repository default)' },
        watch: { type: 'boolean', description: 'wait for the result; exit status 1 when the scan fails' },
        ...idempotencyOption,
      },
      async run(context) {
        const { data } = await context.api.post('/v1/security/scans', {
          body: {
            project_id: required(context, 'project'),
            scan_types: (listOption(context, 'types') ?? ['secrets', 'dependencies', 'sast']) as ('secrets' | 'dependencies' | 'sast')[],
            branch: optionalString(context, 'branch'),
          },
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Started scan ${data.id} (${data.status}).`);
          return 0;
        }
        const progress = context.out.progress();
        const scan = await pollUntil(
          context,
          () => readScan(context, data.id),
          (s) => s.status === 'completed' || s.status === 'failed',
          (s) => progress.update(`${s.id} ${s.status}`, jobTime(s)),
        );
        progress.stop();
        if (!scan) return interrupted;
        context.out.result(scan, () => describeScan(scan));
        return scan.status === 'completed' ? 0 : 1;
      },
    },
    list: {
      summary: 'list scans, newest first',
      options: {
        ...jobListOptions,
      },
      async run(context) {
        const query = {
          ...jobListQuery(context),
        };
        const { items, meta } = await readList<Scan>(
          context,
          () => context.api.paginate('/v1/security/scans', { params: { query } }),
          () => context.api.get('/v1/security/scans', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'STATUS', 'TYPES', 'FINDINGS', 'PROJECT', 'CREATED'],
            items.map((scan) => [scan.id, scan.status, scan.scan_types.join(','), scan.summary?.total, scan.project_id, scan.created_at]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show a scan',
      args: '<scan_id>',
      async run(context) {
        const scan = await readScan(context, argument(context, 0, 'the scan id'));
        context.out.result(scan, () => describeScan(scan));
        return 0;
      },
    },
  },
};

export const findings: CommandGroup = {
  name: 'findings',
  summary: 'list and read security findings, remediate them, read their patches',
  commands: {
    list: {
      summary: 'list findings, newest first (or most severe first with --sort severity)',
      options: {
        ...listOptions,
        project: { type: 'string', description: "only this project's" },
        scan: { type: 'string', description: "only this scan's" },
        severity: { type: 'string', description: 'critical, high, medium, low or info', values: severities },
        status: { type: 'string', description: 'open, remediating or resolved', values: ['open', 'remediating', 'resolved'] },
        type: { type: 'string', description: 'secrets, dependencies or sast', values: ['secrets', 'dependencies', 'sast'] },
        sort: { type: 'string', description: 'created_at or severity', values: ['created_at', 'severity'] },
        order: {
          type: 'string',
          description: 'desc or asc (default: newest first, or most severe first with --sort severity)',
          values: ['asc', 'desc'],
        },
      },
      async run(context) {
        const sort = optionalString(context, 'sort');
        const query = {
          ...pageQuery(context),
          project_id: optionalString(context, 'project'),
          scan_id: optionalString(context, 'scan'),
          severity: optionalString(context, 'severity'),
          status: optionalString(context, 'status'),
          type: optionalString(context, 'type'),
          sort,
          // The API's `asc` puts the most severe first: the order a severity sort is read in.
          order: optionalString(context, 'order') ?? (sort === 'severity' ? 'asc' : undefined),
        } as Record<string, unknown>;
        const { items, meta } = await readList<Finding>(
          context,
          () => context.api.paginate('/v1/security/findings', { params: { query } }),
          () => context.api.get('/v1/security/findings', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'SEVERITY', 'STATUS', 'TYPE', 'WHERE', 'TITLE'],
            items.map((f) => [f.id, f.severity, f.status, f.type, whereOf(f.location), f.title]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show a finding and its latest remediation',
      args: '<finding_id>',
      async run(context) {
        const finding = await readFinding(context, argument(context, 0, 'the finding id'));
        context.out.result(finding, () => describeFinding(finding));
        return 0;
      },
    },
    remediate: {
      summary: 'ask for a verified fix of an open finding (a patch, and with push credentials a remediation/<finding id> branch)',
      args: '<finding_id>',
      options: {
        watch: { type: 'boolean', description: 'wait for the outcome; exit status 1 unless the finding was remediated' },
        ...idempotencyOption,
      },
      async run(context) {
        const id = argument(context, 0, 'the finding id');
        const { data } = await context.api.post('/v1/security/findings/{id}/remediate', { params: { path: { id } } });
        if (!context.values.watch) {
          context.out.result(data, () => `Remediating ${id} (${data.status}). Read how it went: findings get ${id}`);
          return 0;
        }
        const progress = context.out.progress();
        const finding = await pollUntil(
          context,
          () => readFinding(context, id),
          (f) => f.remediation?.status !== 'in_progress',
          (f) => progress.update(`${f.id} ${f.status}`),
        );
        progress.stop();
        if (!finding) return interrupted;
        context.out.result(finding, () => describeFinding(finding));
        return finding.remediation?.status === 'completed' ? 0 : 1;
      },
    },
    patch: {
      summary:
        "print a finding's verified remediation patch (a unified diff: pipe it into git apply; one that shows a secret, even on a context line, has it masked and does not apply: use its remediation/<finding id> branch)",
      args: '<finding_id>',
      async run(context) {
        const id = argument(context, 0, 'the finding id');
        const diff = await context.api.get('/v1/security/findings/{id}/patch', { params: { path: { id } } });
        // The diff as served, byte for byte (it ends with its own newline), whatever --json says.
        process.stdout.write(diff);
        return 0;
      },
    },
  },
};
