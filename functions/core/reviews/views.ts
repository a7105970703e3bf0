import { severities } from '../security/scanner';
import type { Review, ReviewComment, ReviewCounts } from './review';

type ReviewView = Omit<Review, 'revision'>;

const reviewFields: (keyof ReviewView)[] = [
  'id',
  'project_id',
  'workflow_id',
  'base',
  'head',
  'base_ref',
  'merge_base',
  'head_commit',
  'ai_provider',
  'instructions',
  'status',
  'summary',
  'verdict',
  'counts',
  'files',
  'files_total',
  'ai_usage',
  'error',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'duration_ms',
];

const commentFields: (keyof ReviewComment)[] = [
  'id',
  'review_id',
  'project_id',
  'path',
  'start_line',
  'line',
  'severity',
  'category',
  'source',
  'rule',
  'body',
  'suggestion',
  'created_at',
];

/** `value` with the keys in `order` (the table returns a map's keys in any order). */
const ordered = <T extends object>(value: T, order: readonly (keyof T)[]): T =>
  Object.fromEntries(order.map((key) => [key, value[key]])) as T;

export const countsView = (counts: ReviewCounts): ReviewCounts => ({
  comments: counts.comments,
  by_severity: ordered(counts.by_severity, severities),
  by_source: ordered(counts.by_source, ['analysis', 'ai']),
  dropped: ordered(counts.dropped, ['outside_diff', 'duplicate', 'over_limit']),
  suggestions_dropped: counts.suggestions_dropped,
});

/** What the API shows, in the documented order, nested objects too. */
export const viewOfReview = (review: Review): ReviewView => {
  const view = ordered(review as ReviewView, reviewFields);
  return {
    ...view,
    counts: review.counts && countsView(review.counts),
    files: review.files.map((file) => ordered(file, ['path', 'previous_path', 'change', 'additions', 'deletions', 'status', 'reason'])),
    ai_usage: review.ai_usage && ordered(review.ai_usage, ['input_tokens', 'output_tokens', 'provider', 'model', 'requests']),
  };
};

export const viewOfComment = (comment: ReviewComment): ReviewComment => {
  const view = ordered(comment, commentFields);
  return { ...view, suggestion: comment.suggestion && ordered(comment.suggestion, ['replacement', 'patch']) };
};
