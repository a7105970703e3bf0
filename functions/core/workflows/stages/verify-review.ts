import { AiProviderTransientError } from '../../ai/provider';
import { isoTime } from '../../clock';
import { newId } from '../../ids';
import type { AnalysisResults } from '../../reviews/analysis';
import type { ChangedFile } from '../../reviews/change-source';
import { parseUnifiedDiff, type DiffFile } from '../../reviews/diff-files';
import type { Review, ReviewComment, ReviewRepository } from '../../reviews/review';
import { changeReview, failReview, reviewChange } from '../../reviews/review-change';
import type { ReviewLimits } from '../../reviews/review-limits';
import { newReview } from '../../reviews/review-use-cases';
import { severityRank } from '../../security/finding';
import type { ChangeSet, VerificationReport } from '../stage-data';
import { artifactKeys } from './artifact-keys';
import { tenantOf, type Workflow, type WorkflowOutputs, type WorkflowRef } from '../workflow';
import type { StageLog } from './run-stage';
import type { StageDeps } from './stage-deps';

export interface ReviewingDeps extends StageDeps {
  /** Present where verify reviews the change (config.review, default true). */
  reviews?: ReviewRepository;
  reviewLimits?: Partial<ReviewLimits>;
}

/** The request the change was made for: what the review holds it against. */
const instructionsFor = (workflow: Workflow): string =>
  `This change was written by an automated workflow for the request below; check that it does what was asked, and nothing unsafe.\n\n${workflow.prompt}`.slice(
    0,
    5_000,
  );

/** The change set's files as a review reads them: what each held at the intake commit, and after. */
const changedFilesOf = (changes: ChangeSet, originals: Record<string, string | null>): ChangedFile[] =>
  changes.files.flatMap((file): ChangedFile[] => {
    const before = Object.hasOwn(originals, file.path) ? (originals[file.path] ?? null) : null;
    if (before === file.content) return [];
    return [
      {
        path: file.path,
        previous_path: null,
        change: before === null ? 'added' : file.content === null ? 'deleted' : 'modified',
        kind: 'text',
        before,
        after: file.content,
      },
    ];
  });

/** The patch build (or iterate) stored, the one the provenance covers, by path; none when it is missing. */
const recordedDiffs = async (deps: StageDeps, ref: WorkflowRef): Promise<Map<string, DiffFile> | undefined> => {
  const patch = await deps.artifacts.get(artifactKeys.patch(ref));
  return patch ? new Map(parseUnifiedDiff(patch.toString('utf8')).map((file) => [file.path, file])) : undefined;
};

export interface VerifyReview {
  review: Review;
  /** The AI's comments of severity high or worse: verify's failures (the analysis ones are its own checks already). */
  blocking: ReviewComment[];
}

const isBlocking = (comment: ReviewComment): boolean => comment.source === 'ai' && severityRank[comment.severity] <= severityRank.high;

/**
 * Verify's code review of the build's change (`rev_…`, with the workflow's id): the same review a
 * caller gets from POST /v1/reviews, of the very patch the workflow stored (from the intake commit
 * to the changed tree), fed the checks and scanner results verify made. Its events are sent as any review's. A transient AI failure is
 * thrown on (the state machine retries verify); any other failure is the review's, logged, and
 * verify goes on with its own checks.
 */
export const reviewBuildChange = async (
  deps: ReviewingDeps & { reviews: ReviewRepository },
  ref: WorkflowRef,
  workflow: Workflow,
  change: { changes: ChangeSet; originals: Record<string, string | null>; analysis: AnalysisResults },
  log: StageLog,
): Promise<VerifyReview | null> => {
  const tenant = tenantOf(ref);
  const now = deps.clock.now();
  const queued = newReview({
    id: newId('review', now),
    project_id: workflow.project_id,
    workflow_id: workflow.id,
    base: workflow.outputs.branch,
    head: null,
    ai_provider: workflow.config.ai_provider,
    instructions: instructionsFor(workflow),
    now: isoTime(now),
  });
  // Refused once the workflow is no longer running: a cancelled workflow starts no review (its
  // project cannot be deleted while it runs). Verify's own end then finds it cancelled too.
  if (!(await deps.reviews.create(tenant, queued))) return null;
  const running = await changeReview(deps, tenant, queued.id, (review, nowIso) =>
    review.status === 'queued' ? { next: { ...review, status: 'running', started_at: nowIso }, events: [] } : null,
  );
  if (!running || running.status !== 'running') return null;
  try {
    const { review, comments } = await reviewChange(
      { ...deps, limits: deps.reviewLimits },
      tenant,
      running,
      {
        base_ref: workflow.outputs.branch,
        merge_base: workflow.outputs.commit,
        head_commit: null,
        files: changedFilesOf(change.changes, change.originals),
        diffs: await recordedDiffs(deps, ref),
      },
      async () => change.analysis,
    );
    if (!review) return null;
    const blocking = comments.filter(isBlocking);
    await log.info(
      `Review ${review.id}: ${review.verdict ?? review.status}, ${comments.length} comment(s), ${blocking.length} from the AI of severity high or worse`,
    );
    return { review, blocking };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const failed = await failReview(deps, tenant, queued.id, reason);
    if (error instanceof AiProviderTransientError) throw error;
    await log.warn(`Review ${queued.id} failed: ${reason}`);
    return failed ? { review: failed, blocking: [] } : null;
  }
};

/** The review's blocking comments as verification problems (check `review`), which iterate is asked to fix. */
export const withReviewProblems = (report: VerificationReport, blocking: ReviewComment[]): VerificationReport => {
  if (blocking.length === 0) return report;
  const paths = [...new Set(blocking.map((comment) => comment.path))];
  return {
    passed: false,
    checks: [
      ...report.checks,
      ...paths.map((path) => ({ name: 'review', path, status: 'failed' as const, message: 'AI review comments' })),
    ],
    problems: [
      ...report.problems,
      ...blocking.map((comment) => ({
        check: 'review',
        path: comment.path,
        line: comment.line,
        message: `[${comment.severity}] ${comment.body.replace(/\s+/g, ' ').slice(0, 1_000)}`,
      })),
    ],
  };
};

export const reviewOutput = (result: VerifyReview | null): WorkflowOutputs['review'] =>
  result && {
    id: result.review.id,
    status: result.review.status,
    verdict: result.review.verdict,
    comments: result.review.counts?.comments ?? 0,
    blocking: result.blocking.length,
  };
