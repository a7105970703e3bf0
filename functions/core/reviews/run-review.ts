import type { Project } from '../projects/project';
import type { RawFinding, Scanner } from '../security/scanner';
import type { Tenant } from '../tenancy';
import type { CheckChangedFiles } from '../workflows/stages/verify';
import type { Scratch } from '../workspace/working-tree';
import type { AnalysisResults } from './analysis';
import type { ChangedFile, ChangeReader } from './change-source';
import type { Review } from './review';
import { changeReview, failReview, reviewChange, type ReviewChangeDeps } from './review-change';
import type { ReviewJobRef } from './review-jobs';

/** The deterministic analysis a review runs before the AI: verify's checks and the security scanners. */
export interface ChangeAnalyser {
  checkFiles: CheckChangedFiles;
  /** The sast and secrets scanners. */
  scanners: Scanner[];
}

export interface ReviewJobDeps extends ReviewChangeDeps {
  projects: { get(tenant: Tenant, id: string): Promise<Project | undefined> };
  changes: ChangeReader;
  scratch: Scratch;
  analyser: ChangeAnalyser;
  /** Told what failed a review (the review keeps the reason; the operator's log keeps the error). */
  reportFailure?: (error: unknown, ref: ReviewJobRef) => void;
}

/**
 * The job found its review already running: an earlier attempt of the same job crashed or timed
 * out. Throwing lets the worker's retries end in its failure destination, whose safety net fails
 * the review with the reason, rather than leave it running (or run it twice).
 */
export class ReviewAlreadyRunning extends Error {
  override readonly name = 'ReviewAlreadyRunning';
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The analysis of the changed files that still exist on the head side: their checks in the
 * checked-out head tree (imports resolve there), and the scanners over a tree of those files only,
 * so a large repository costs no more than its change. `secretsOnly` (generated files the review
 * sets aside) get the secrets scanner alone, over a tree of their own.
 */
export const analyseChange = async (
  deps: Pick<ReviewJobDeps, 'analyser' | 'scratch'>,
  headDir: string,
  files: ChangedFile[],
  secretsOnly: ChangedFile[] = [],
): Promise<AnalysisResults> => {
  const present = files.filter((file) => file.after !== null);
  const checks = await deps.analyser.checkFiles(
    headDir,
    present.map((file) => file.path),
  );
  const findings: RawFinding[] = [];
  const scanTree = async (treeFiles: ChangedFile[], scanners: Scanner[]): Promise<void> => {
    if (treeFiles.length === 0 || scanners.length === 0) return;
    const tree = await deps.scratch.create();
    try {
      await tree.apply(treeFiles.map((file) => ({ path: file.path, content: file.after })));
      for (const scanner of scanners) findings.push(...(await scanner.scan(tree.dir)).findings);
    } finally {
      await tree.dispose();
    }
  };
  await scanTree(present, deps.analyser.scanners);
  await scanTree(
    secretsOnly.filter((file) => file.after !== null),
    deps.analyser.scanners.filter((scanner) => scanner.type === 'secrets'),
  );
  return { checks, findings };
};

/**
 * A review job: claim the queued review, read the change a pull request from head into base would
 * show (from their merge base), analyse it and review it. Anything that stops it fails the review
 * with the reason (and `review.completed`).
 */
export const runReviewJob = async (deps: ReviewJobDeps, ref: ReviewJobRef): Promise<Review | undefined> => {
  const tenant: Tenant = { accountId: ref.account_id, mode: ref.mode };
  let claimed = false;
  const started = await changeReview(deps, tenant, ref.id, (review, nowIso) => {
    claimed = review.status === 'queued';
    return claimed ? { next: { ...review, status: 'running', started_at: nowIso }, events: [] } : null;
  });
  if (!started) return undefined;
  if (!claimed) {
    if (started.status === 'running') throw new ReviewAlreadyRunning(`review ${ref.id} is running already (an earlier attempt stopped)`);
    return started;
  }
  try {
    const project = await deps.projects.get(tenant, started.project_id);
    if (!project) throw new Error(`project ${started.project_id} no longer exists`);
    if (started.head === null) throw new Error('the review names no head to review');
    const tree = await deps.scratch.create();
    try {
      const change = await deps.changes.read({
        url: project.repository,
        base: started.base ?? undefined,
        head: started.head,
        dir: tree.dir,
      });
      const { review } = await reviewChange(deps, tenant, started, change, (files, secretsOnly) =>
        analyseChange(deps, tree.dir, files, secretsOnly),
      );
      return review;
    } finally {
      await tree.dispose();
    }
  } catch (error) {
    deps.reportFailure?.(error, ref);
    return failReview(deps, tenant, ref.id, message(error));
  }
};
