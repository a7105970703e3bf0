import { zeroCounts } from '../security/scan';
import type { Review, ReviewComment } from './review';
import { countsView, viewOfComment } from './views';

/** `review.comment.created`: the comment, with its review id. */
export const commentCreatedData = (comment: ReviewComment): Record<string, unknown> => ({ ...viewOfComment(comment) });

/** `review.completed`, sent for a completed and for a failed review (`status` says which). */
export const reviewCompletedData = (review: Review): Record<string, unknown> => {
  const counts = review.counts && countsView(review.counts);
  return {
    review_id: review.id,
    project_id: review.project_id,
    workflow_id: review.workflow_id,
    status: review.status,
    verdict: review.verdict,
    comments: counts?.comments ?? 0,
    by_severity: counts?.by_severity ?? zeroCounts(),
    dropped_comments: counts?.dropped ?? { outside_diff: 0, duplicate: 0, over_limit: 0 },
    head_commit: review.head_commit,
    merge_base: review.merge_base,
    error: review.error,
    duration_ms: review.duration_ms ?? 0,
  };
};
