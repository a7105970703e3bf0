import { type Clock, isoTime } from '../clock';
import { notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { CommentFilters, Review, ReviewComment, ReviewFilters, ReviewRepository } from './review';
import type { ReviewJobs } from './review-jobs';
import { reviewCompletedData } from './snapshots';

export interface ReviewDeps {
  reviews: ReviewRepository;
  jobs: ReviewJobs;
  clock: Clock;
  /** The AI providers this deployment configured, in its order of preference. */
  configuredProviders: () => string[];
}

export interface ReviewRequest {
  project_id: string;
  head: string;
  base?: string;
  ai_provider?: string;
  instructions?: string;
}

/** A review as it is first stored: `queued`, nothing known yet but what was asked. */
export const newReview = (input: {
  id: string;
  project_id: string;
  workflow_id: string | null;
  base: string | null;
  head: string | null;
  ai_provider: string;
  instructions: string | null;
  now: string;
}): Review => ({
  id: input.id,
  project_id: input.project_id,
  workflow_id: input.workflow_id,
  base: input.base,
  head: input.head,
  base_ref: null,
  merge_base: null,
  head_commit: null,
  ai_provider: input.ai_provider,
  instructions: input.instructions,
  status: 'queued',
  summary: null,
  verdict: null,
  counts: null,
  files: [],
  files_total: 0,
  ai_usage: null,
  error: null,
  created_at: input.now,
  updated_at: input.now,
  started_at: null,
  completed_at: null,
  duration_ms: null,
  revision: 1,
});

const unknownProject = () => validationError([{ field: 'project_id', issue: 'is not a project of this account and mode' }]);

export const createReview = async (tenant: Tenant, input: ReviewRequest, deps: ReviewDeps): Promise<Review> => {
  const configured = deps.configuredProviders();
  const provider = input.ai_provider ?? configured[0];
  if (!provider || !configured.includes(provider)) {
    throw validationError([
      { field: 'ai_provider', issue: `is not configured in this deployment; configured: ${configured.join(', ') || 'none'}` },
    ]);
  }
  if (input.base !== undefined && input.base === input.head) {
    throw validationError([{ field: 'base', issue: 'names the same branch or commit as head: there is nothing to review' }]);
  }
  if (!isId('project', input.project_id)) throw unknownProject();
  const now = deps.clock.now();
  const at = isoTime(now);
  const review = newReview({
    id: newId('review', now),
    project_id: input.project_id,
    workflow_id: null,
    base: input.base ?? null,
    head: input.head,
    ai_provider: provider,
    instructions: input.instructions ?? null,
    now: at,
  });
  if (!(await deps.reviews.create(tenant, review))) throw unknownProject();
  try {
    await deps.jobs.start({ action: 'review', ref: { account_id: tenant.accountId, mode: tenant.mode, id: review.id } });
  } catch {
    // Never started: say so on the record (with its event) rather than leave it queued.
    const failed: Review = {
      ...review,
      status: 'failed',
      error: 'The review could not be started; create it again.',
      completed_at: at,
      duration_ms: 0,
      revision: 2,
    };
    if (await deps.reviews.save(tenant, review, failed, [{ type: 'review.completed', data: reviewCompletedData(failed) }])) return failed;
  }
  return review;
};

const checkedReviewId = (id: string): string => {
  if (!isId('review', id)) throw notFound('Review');
  return id;
};

export const getReview = async (tenant: Tenant, id: string, deps: { reviews: Pick<ReviewRepository, 'get'> }): Promise<Review> => {
  const review = await deps.reviews.get(tenant, checkedReviewId(id));
  if (!review) throw notFound('Review');
  return review;
};

export const listReviews = (
  tenant: Tenant,
  query: ListQuery<'created_at'>,
  filters: ReviewFilters,
  deps: { reviews: Pick<ReviewRepository, 'list'> },
): Promise<Page<Review>> => {
  if (filters.project_id !== undefined && !isId('project', filters.project_id)) return Promise.resolve({ items: [], total: 0 });
  return deps.reviews.list(tenant, query, filters);
};

/** A review's comments; 404 when the review is unknown. */
export const listReviewComments = async (
  tenant: Tenant,
  reviewId: string,
  query: ListQuery<'created_at'>,
  filters: CommentFilters,
  deps: { reviews: Pick<ReviewRepository, 'get' | 'listComments'> },
): Promise<Page<ReviewComment>> => {
  const review = await getReview(tenant, reviewId, deps);
  return deps.reviews.listComments(tenant, review.id, query, filters);
};
