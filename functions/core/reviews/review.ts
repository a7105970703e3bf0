import type { ListQuery, Page } from '../pagination';
import type { SeverityCounts } from '../security/scan';
import type { Severity } from '../security/scanner';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';

export const reviewStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/** As on a GitHub pull request review. */
export const reviewVerdicts = ['approve', 'comment', 'request_changes'] as const;
export type ReviewVerdict = (typeof reviewVerdicts)[number];

export const commentCategories = ['bug', 'security', 'performance', 'maintainability', 'style', 'test'] as const;
export type CommentCategory = (typeof commentCategories)[number];

/** `analysis`: the type check or a scanner reported it; `ai`: the AI provider wrote it. */
export const commentSources = ['analysis', 'ai'] as const;
export type CommentSource = (typeof commentSources)[number];

export const fileChanges = ['added', 'modified', 'deleted', 'renamed'] as const;
export type FileChangeKind = (typeof fileChanges)[number];

/** `skipped`: binary or generated, on purpose; `not_reviewed`: past a limit (the reason says which). */
export const reviewFileStatuses = ['reviewed', 'skipped', 'not_reviewed'] as const;
export type ReviewFileStatus = (typeof reviewFileStatuses)[number];

export interface ReviewFile {
  path: string;
  /** The path on the base side of a rename. */
  previous_path: string | null;
  change: FileChangeKind;
  additions: number;
  deletions: number;
  status: ReviewFileStatus;
  reason: string | null;
}

export interface ReviewCounts {
  /** Comments stored. */
  comments: number;
  by_severity: SeverityCounts;
  by_source: Record<CommentSource, number>;
  /** Comments not stored, and why: never invented, never silently lost. */
  dropped: {
    /** On a line the diff does not show on the head side (for analysis results: not an added line). */
    outside_diff: number;
    /** The same place and text as a comment already kept. */
    duplicate: number;
    /** Past the cap of comments per review (the least severe go first). */
    over_limit: number;
  };
  /** Suggestions removed from a kept comment because they did not apply cleanly as a patch. */
  suggestions_dropped: number;
}

export interface ReviewUsage {
  input_tokens: number;
  output_tokens: number;
  provider: string;
  model: string;
  /** AI requests made: one per part of a diff split to fit the provider's context. */
  requests: number;
}

export interface Review {
  id: string;
  project_id: string;
  /** The workflow whose verify stage made this review, or null. */
  workflow_id: string | null;
  /** As asked; null means the repository's default branch (then `base_ref` says which). */
  base: string | null;
  /** As asked: a branch or a full commit id; null for a workflow's review (its change is not a commit). */
  head: string | null;
  base_ref: string | null;
  /** The merge base of base and head: the diff is taken from there to head, as a pull request's is. */
  merge_base: string | null;
  head_commit: string | null;
  ai_provider: string;
  instructions: string | null;
  status: ReviewStatus;
  summary: string | null;
  verdict: ReviewVerdict | null;
  counts: ReviewCounts | null;
  /** Every file of the diff (the first `maxListedFiles`), with whether it was reviewed and why not. */
  files: ReviewFile[];
  /** Files in the diff, all of them (the list above may be cut). */
  files_total: number;
  ai_usage: ReviewUsage | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  revision: number;
}

export interface Suggestion {
  /** The new text of lines `start_line`..`line` (or `line`), exactly. */
  replacement: string;
  /** The same change as a unified diff against the head file, checked to apply cleanly (`git apply`). */
  patch: string;
}

export interface ReviewComment {
  id: string;
  review_id: string;
  project_id: string;
  path: string;
  /** First head-side line of a range; null for a comment on one line. */
  start_line: number | null;
  /** The (last) head-side line. */
  line: number;
  severity: Severity;
  category: CommentCategory;
  source: CommentSource;
  /** The analysis rule that reported it (e.g. `typescript/TS2322`, `secretlint/aws`); null for the AI's own. */
  rule: string | null;
  body: string;
  suggestion: Suggestion | null;
  created_at: string;
}

export interface ReviewFilters {
  project_id?: string;
  status?: ReviewStatus;
}

export interface CommentFilters {
  severity?: Severity;
  path?: string;
}

export interface ReviewRepository {
  /**
   * False when the project does not exist, or for a workflow's review (`workflow_id`) when the
   * workflow is no longer running (cancelled meanwhile): nothing written.
   */
  create(tenant: Tenant, review: Review): Promise<boolean>;
  get(tenant: Tenant, id: string): Promise<Review | undefined>;
  list(tenant: Tenant, query: ListQuery<'created_at'>, filters: ReviewFilters): Promise<Page<Review>>;
  /**
   * Replaces the review if still at `previous.revision`, with its events, in one transaction; with
   * `commentCount`, only while the review has exactly that many comments (a comment stored since
   * they were counted refuses it).
   */
  save(tenant: Tenant, previous: Review, next: Review, events: PendingEvent[], options?: { commentCount?: number }): Promise<boolean>;
  /**
   * Stores one comment with its `review.comment.created` event in one transaction, only while the
   * review is `running`: false when it is not (it failed or finished meanwhile; nothing written).
   */
  addComment(tenant: Tenant, comment: ReviewComment, event: PendingEvent): Promise<boolean>;
  listComments(tenant: Tenant, reviewId: string, query: ListQuery<'created_at'>, filters: CommentFilters): Promise<Page<ReviewComment>>;
  /** Every comment of the review in the order they were made, read strongly consistent: one stored a moment ago is among them. */
  allComments(tenant: Tenant, reviewId: string): Promise<ReviewComment[]>;
}
