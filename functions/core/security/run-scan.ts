import { isoTime } from '../clock';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';
import { type Finding, fingerprintOf, type Remediation, type ScopeClaim, ScopeSupersededError } from './finding';
import { findingSnapshot, scanSnapshot } from './snapshots';
import type { SecurityJobDeps } from './job-deps';
import { type Scan, type ScanSummary, zeroCounts } from './scan';
import type { SecurityJobRef } from './security-jobs';
import type { RawFinding, ScanResult, ScanType } from './scanner';
import { newId } from '../ids';
import { changeOptimistically } from '../optimistic-update';

const tenantOf = (ref: SecurityJobRef): Tenant => ({ accountId: ref.account_id, mode: ref.mode });

/** Read, change, store if unchanged meanwhile (else again). */
const changeScan = (
  deps: SecurityJobDeps,
  tenant: Tenant,
  id: string,
  change: (scan: Scan, nowIso: string) => { next: Scan; events: PendingEvent[] } | null,
): Promise<Scan | undefined> =>
  changeOptimistically(
    `scan ${id}`,
    () => deps.scans.get(tenant, id),
    (current) => {
      const nowIso = isoTime(deps.clock.now());
      const result = change(current, nowIso);
      return result && { ...result, next: { ...result.next, updated_at: nowIso, revision: current.revision + 1 } };
    },
    async (current, { next, events }) => ((await deps.scans.save(tenant, current, next, events)) ? next : null),
  );

/** What a scanner says of a finding, which the latest scan that reports it decides. */
const reportedFields = (raw: RawFinding): Pick<Finding, 'severity' | 'title' | 'description' | 'location' | 'excerpt' | 'details'> => ({
  severity: raw.severity,
  title: raw.title,
  description: raw.description,
  location: raw.location,
  excerpt: raw.excerpt,
  details: raw.details,
});

/** One finding per fingerprint: the same issue reported twice in one scan counts once. */
const uniqueByFingerprint = (raws: RawFinding[]): Array<{ raw: RawFinding; fingerprint: string }> => {
  const seen = new Map<string, RawFinding>();
  for (const raw of raws) {
    const fingerprint = fingerprintOf(raw);
    if (!seen.has(fingerprint)) seen.set(fingerprint, raw);
  }
  return [...seen].map(([fingerprint, raw]) => ({ raw, fingerprint }));
};

const mapLimit = async <T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
};

/**
 * Why a resolved finding that a scan still reports is open again. A `remediated` one was resolved
 * on the strength of a verified patch, but the code scanned still holds the issue: the patch was
 * never applied (merged) to this branch, and the API must not go on saying it is fixed.
 */
const reopenReason = (finding: Finding, scan: Scan, at: { branch: string; commit: string }): string => {
  const where = `scan ${scan.id} of ${at.branch} at ${at.commit.slice(0, 12)} still finds it`;
  if (finding.resolution !== 'remediated') return `${where}: it came back after it was fixed`;
  const branch = finding.remediation?.pushed_branch;
  return `${where}: the remediation was never applied to ${at.branch}${branch ? ` (merge ${branch})` : ' (apply the patch of the remediation)'}`;
};

/**
 * A remediation still at work when a scan finds its finding gone: the code no longer holds the
 * issue, so the finding is resolved as fixed and the remediation ends here, never left in progress
 * (its job, finding the finding no longer being remediated, then changes nothing).
 */
const stoppedRemediation = (finding: Finding, scan: Scan, at: { branch: string; commit: string }, nowIso: string): Remediation | null =>
  finding.remediation && {
    ...finding.remediation,
    status: 'failed',
    completed_at: nowIso,
    error: `stopped: scan ${scan.id} of ${at.branch} at ${at.commit.slice(0, 12)} no longer finds the finding, so it is resolved as fixed`,
  };

/** Why a scan's results changed no finding of a scan type: a scan of a newer view of the branch decides them. */
const supersededNote = (branch: string): string =>
  `findings not updated: a scan whose checkout of ${branch} began after this one's decides them`;

/**
 * Compares one scan type's results with what earlier scans of the same project and branch
 * reported: new fingerprints become findings (`security.finding.created`), known ones are seen
 * again (`last_seen_at`; a resolved one that is back, fixed or remediated, is open again with the
 * reason: `security.finding.reopened`), and open ones not reported any
 * more are resolved as `fixed` (`security.finding.resolved`).
 */
const reconcile = async (
  deps: SecurityJobDeps,
  tenant: Tenant,
  scan: Scan,
  checkedOut: { branch: string; commit: string; startedAt: string },
  type: ScanType,
  result: ScanResult,
): Promise<{ created: number; resolved: number; superseded: boolean }> => {
  const { branch } = checkedOut;
  const claim: ScopeClaim = { scanId: scan.id, checkoutStartedAt: checkedOut.startedAt };
  // Taken before the findings are read, so a scan that takes the scope after this one reads what it wrote.
  if (!(await deps.findings.claimScope(tenant, scan.project_id, branch, type, claim))) return { created: 0, resolved: 0, superseded: true };
  let superseded = false;
  /** A claimed write refused: a scan whose checkout began later holds the scope, so this one changes nothing more. */
  const whileClaimed = async (work: () => Promise<void>): Promise<void> => {
    if (superseded) return;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ScopeSupersededError)) throw error;
      superseded = true;
    }
  };
  const existing = new Map(
    (await deps.findings.ofScope(tenant, scan.project_id, branch, type)).map((finding) => [finding.fingerprint, finding]),
  );
  const current = uniqueByFingerprint(result.findings);
  let created = 0;
  let resolved = 0;

  await mapLimit(current, 8, ({ raw, fingerprint }) =>
    whileClaimed(async () => {
      const at = isoTime(deps.clock.now());
      const known = existing.get(fingerprint);
      if (!known) {
        const finding: Finding = {
          id: newId('finding', deps.clock.now()),
          project_id: scan.project_id,
          branch,
          scan_id: scan.id,
          type,
          rule_id: raw.rule_id,
          ...reportedFields(raw),
          fingerprint,
          first_seen_at: at,
          last_seen_at: at,
          status: 'open',
          resolution: null,
          resolved_at: null,
          remediation: null,
          reopened_at: null,
          reopen_reason: null,
          created_at: at,
          updated_at: at,
          revision: 1,
        };
        if (await deps.findings.create(tenant, finding, [{ type: 'security.finding.created', data: findingSnapshot(finding) }], claim))
          created += 1;
        return;
      }
      // Seen again: the scan's view of it; a resolved one is open again (`security.finding.reopened`).
      // Changed meanwhile (a remediation starting, say): read again and apply the scan to that.
      let read: Finding | undefined = known;
      await changeOptimistically(
        `finding ${known.id}`,
        async () => read ?? (await deps.findings.get(tenant, known.id)),
        (current) => {
          read = undefined;
          const reopened = current.status === 'resolved' ? reopenReason(current, scan, checkedOut) : null;
          const next: Finding = {
            ...current,
            scan_id: scan.id,
            ...reportedFields(raw),
            last_seen_at: at,
            ...(reopened ? { status: 'open' as const, resolution: null, resolved_at: null, reopened_at: at, reopen_reason: reopened } : {}),
            updated_at: at,
            revision: current.revision + 1,
          };
          const events: PendingEvent[] = reopened ? [{ type: 'security.finding.reopened', data: findingSnapshot(next) }] : [];
          return { next, events };
        },
        async (current, { next, events }) => ((await deps.findings.save(tenant, current, next, events, claim)) ? next : null),
      );
    }),
  );

  const reported = new Set(current.map(({ fingerprint }) => fingerprint));
  const gone = [...existing.values()].filter((finding) => !reported.has(finding.fingerprint) && finding.status !== 'resolved');
  await mapLimit(gone, 8, (finding) =>
    whileClaimed(async () => {
      // Changed meanwhile (a remediation starting, say): read again and resolve that, unless another
      // scan saw it since this one read it.
      let read: Finding | undefined = finding;
      let resolvedHere = false;
      await changeOptimistically(
        `finding ${finding.id}`,
        async () => read ?? (await deps.findings.get(tenant, finding.id)),
        (current) => {
          read = undefined;
          if (current.status === 'resolved' || current.last_seen_at !== finding.last_seen_at) return null;
          const at = isoTime(deps.clock.now());
          const next: Finding = {
            ...current,
            status: 'resolved',
            resolution: 'fixed',
            resolved_at: at,
            remediation: current.status === 'remediating' ? stoppedRemediation(current, scan, checkedOut, at) : current.remediation,
            updated_at: at,
            revision: current.revision + 1,
          };
          return { next, events: [{ type: 'security.finding.resolved' as const, data: findingSnapshot(next) }] };
        },
        async (current, { next, events }) => {
          if (!(await deps.findings.save(tenant, current, next, events, claim))) return null;
          resolvedHere = true;
          return next;
        },
      );
      if (resolvedHere) resolved += 1;
    }),
  );
  return { created, resolved, superseded };
};

const summaryOf = (results: Array<[ScanType, ScanResult]>, created: number, resolved: number): ScanSummary => {
  const summary: ScanSummary = { total: 0, by_severity: zeroCounts(), by_type: {}, new_findings: created, resolved_findings: resolved };
  for (const [type, result] of results) {
    const counts = zeroCounts();
    for (const { raw } of uniqueByFingerprint(result.findings)) {
      counts[raw.severity] += 1;
      summary.by_severity[raw.severity] += 1;
      summary.total += 1;
    }
    summary.by_type[type] = counts;
  }
  return summary;
};

/**
 * A scan: check out the branch, run each scanner asked for, reconcile the findings, and record the
 * summary and coverage (`security.scan.completed`). A scan that cannot finish is `failed` with its
 * errors (also announced by `security.scan.completed`, whose data says `failed`).
 */
export const runScan = async (deps: SecurityJobDeps, ref: SecurityJobRef): Promise<Scan | undefined> => {
  const tenant = tenantOf(ref);
  const started = await changeScan(deps, tenant, ref.id, (scan, nowIso) => {
    if (scan.status !== 'queued') return null;
    const next: Scan = { ...scan, status: 'running', started_at: nowIso };
    return { next, events: [{ type: 'security.scan.started', data: scanSnapshot(next) }] };
  });
  if (!started || started.status !== 'running') return started;

  const finish = (change: (scan: Scan, nowIso: string) => Scan) =>
    changeScan(deps, tenant, ref.id, (scan, nowIso) => {
      if (scan.status !== 'running') return null;
      const next = change(scan, nowIso);
      const duration = scan.started_at ? Math.max(0, Date.parse(nowIso) - Date.parse(scan.started_at)) : null;
      const finished = { ...next, completed_at: nowIso, duration_ms: duration };
      return { next: finished, events: [{ type: 'security.scan.completed', data: scanSnapshot(finished) }] };
    });

  try {
    const project = await deps.projects.get(tenant, started.project_id);
    if (!project) throw new Error(`project ${started.project_id} no longer exists`);
    // A cold container's scanners (sast: worker threads loading ESLint) get ready during the checkout.
    for (const type of started.scan_types) deps.scanner(type).prepare?.();
    const tree = await deps.scratch.create();
    let checkedOut: { commit: string; branch: string; startedAt: string };
    const results: Array<[ScanType, ScanResult]> = [];
    try {
      const startedAt = isoTime(deps.clock.now());
      const { commit, branch } = await deps.repository.checkout({
        url: project.repository,
        branch: started.branch ?? undefined,
        dir: tree.dir,
      });
      checkedOut = { commit, branch, startedAt };
      for (const type of started.scan_types) results.push([type, await deps.scanner(type).scan(tree.dir)]);
    } finally {
      await tree.dispose();
    }
    let created = 0;
    let resolved = 0;
    const superseded: ScanType[] = [];
    for (const [type, result] of results) {
      const counts = await reconcile(deps, tenant, started, checkedOut, type, result);
      created += counts.created;
      resolved += counts.resolved;
      if (counts.superseded) superseded.push(type);
    }
    return await finish((scan) => ({
      ...scan,
      status: 'completed',
      branch_scanned: checkedOut.branch,
      commit: checkedOut.commit,
      summary: summaryOf(results, created, resolved),
      coverage: Object.fromEntries(results.map(([type, result]) => [type, result.coverage])),
      errors: [
        ...superseded.map((type) => `${type}: ${supersededNote(checkedOut.branch)}`),
        ...results.flatMap(([type, result]) => result.errors.map((error) => `${type}: ${error}`)),
      ].slice(0, 100),
    }));
  } catch (error) {
    return finish((scan) => ({
      ...scan,
      status: 'failed',
      errors: [...scan.errors, error instanceof Error ? error.message : String(error)],
    }));
  }
};
