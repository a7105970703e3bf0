import { isoTime, type Clock } from '../clock';
import type { FindingRepository } from '../security/finding';
import { remediationFailed } from '../security/remediate';
import type { ScanRepository } from '../security/scan';
import { scanSnapshot } from '../security/snapshots';
import type { ReviewRepository } from '../reviews/review';
import { failReview } from '../reviews/review-change';
import type { Tenant } from '../tenancy';
import { runSnapshot, suiteSnapshot } from '../testing/snapshots';
import type { TestRepository } from '../testing/test-records';

export interface FailedJob {
  action: string;
  ref: { account_id: string; mode: Tenant['mode']; id: string };
}

export interface JobFailedDeps {
  scans: ScanRepository;
  findings: FindingRepository;
  tests: TestRepository;
  reviews: ReviewRepository;
  clock: Clock;
}

/**
 * The safety net of the asynchronous workers: a job whose invocations all failed (a timeout, a
 * crash, memory) reaches the worker's failure destination, and its record is failed here instead
 * of staying `running` / `remediating` forever, each with the event that tells its end (a scan's
 * `security.scan.completed`, a remediation's `security.finding.remediation.failed`, a review's
 * `review.completed`, a test generation's `test.generation.completed`, a test run's
 * `test.run.completed`, each saying `failed`). Records that already finished are left alone.
 */
export const recordFailedJob = async (deps: JobFailedDeps, job: FailedJob, reason: string): Promise<void> => {
  const tenant: Tenant = { accountId: job.ref.account_id, mode: job.ref.mode };
  const now = isoTime(deps.clock.now());
  const message = `The ${job.action} stopped: ${reason}.`;
  switch (job.action) {
    case 'scan': {
      const scan = await deps.scans.get(tenant, job.ref.id);
      if (!scan || (scan.status !== 'queued' && scan.status !== 'running')) return;
      const next = {
        ...scan,
        status: 'failed' as const,
        errors: [...scan.errors, message],
        completed_at: now,
        updated_at: now,
        revision: scan.revision + 1,
      };
      await deps.scans.save(tenant, scan, next, [{ type: 'security.scan.completed', data: scanSnapshot(next) }]);
      return;
    }
    case 'remediate':
      await remediationFailed(deps, tenant, job.ref.id, message);
      return;
    case 'review':
      await failReview(deps, tenant, job.ref.id, message);
      return;
    case 'generate': {
      const suite = await deps.tests.getSuite(tenant, job.ref.id);
      if (!suite || (suite.status !== 'queued' && suite.status !== 'running')) return;
      const failed = {
        ...suite,
        status: 'failed' as const,
        error: message,
        completed_at: now,
        updated_at: now,
        revision: suite.revision + 1,
      };
      await deps.tests.saveSuite(tenant, suite, failed, [{ type: 'test.generation.completed', data: suiteSnapshot(failed) }]);
      return;
    }
    case 'run': {
      const run = await deps.tests.getRun(tenant, job.ref.id);
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const failed = { ...run, status: 'failed' as const, error: message, completed_at: now, updated_at: now, revision: run.revision + 1 };
      await deps.tests.saveRun(tenant, run, failed, [{ type: 'test.run.completed', data: runSnapshot(failed) }]);
      return;
    }
  }
};
