import type { Review, ReviewComment } from './review';

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

/** What the API shows, in the documented order (the table returns fields in any order). */
export const viewOfReview = (review: Review): ReviewView =>
  Object.fromEntries(reviewFields.map((field) => [field, review[field]])) as unknown as ReviewView;

export const viewOfComment = (comment: ReviewComment): ReviewComment =>
  Object.fromEntries(commentFields.map((field) => [field, comment[field]])) as unknown as ReviewComment;
