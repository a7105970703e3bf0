import type { ListQuery } from '../../../functions/core/pagination';
import { fakeNextCursor } from './created-order';
import type { Review, ReviewComment, ReviewRepository } from '../../../functions/core/reviews/review';
import type { Tenant } from '../../../functions/core/tenancy';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';

const keyOf = (tenant: Tenant, id: string) => `${tenant.accountId}|${tenant.mode}|${id}`;

/**
 * In-memory ReviewRepository with the DynamoDB adapter's rules: `create` answers false for a
 * project it does not know (add them with `addProject`); `save` only replaces a review still at
 * `previous.revision`; `addComment` only while the review is `running`. Every stored event is
 * kept in write order (`events`), as the table's stream would carry them. Returns copies.
 */
export const inMemoryReviewRepository = () => {
  const projects = new Set<string>();
  /** Workflows no longer running (cancelled, finished): their reviews are refused. Any other counts as running. */
  const stoppedWorkflows = new Set<string>();
  const reviews = new Map<string, Review>();
  const comments: ReviewComment[] = [];
  const events: PendingEvent[] = [];

  const repository: ReviewRepository = {
    async create(tenant, review) {
      if (review.workflow_id !== null && stoppedWorkflows.has(keyOf(tenant, review.workflow_id))) return false;
      if (!projects.has(keyOf(tenant, review.project_id))) return false;
      if (reviews.has(keyOf(tenant, review.id))) throw new Error(`review ${review.id} exists`);
      reviews.set(keyOf(tenant, review.id), structuredClone(review));
      return true;
    },
    async get(tenant, id) {
      return structuredClone(reviews.get(keyOf(tenant, id)));
    },
    async list(tenant, query: ListQuery<'created_at'>, filters) {
      const items = [...reviews.entries()]
        .filter(([key]) => key.startsWith(keyOf(tenant, '')))
        .map(([, review]) => review)
        .filter(
          (review) =>
            (filters.project_id === undefined || review.project_id === filters.project_id) &&
            (filters.status === undefined || review.status === filters.status),
        )
        .sort((a, b) => (a.id < b.id ? 1 : -1));
      return {
        items: structuredClone(items.slice((query.page - 1) * query.perPage, query.page * query.perPage)),
        total: items.length,
        nextCursor: fakeNextCursor(query, items.length),
      };
    },
    async save(tenant, previous, next, saved, options) {
      const key = keyOf(tenant, previous.id);
      if (reviews.get(key)?.revision !== previous.revision) return false;
      const stored = comments.filter((comment) => comment.review_id === previous.id).length;
      if (options?.commentCount !== undefined && stored !== options.commentCount) return false;
      reviews.set(key, structuredClone(next));
      events.push(...structuredClone(saved));
      return true;
    },
    async addComment(tenant, comment, event) {
      if (reviews.get(keyOf(tenant, comment.review_id))?.status !== 'running') return false;
      comments.push(structuredClone(comment));
      events.push(structuredClone(event));
      return true;
    },
    async allComments(_tenant, reviewId) {
      return structuredClone(comments.filter((comment) => comment.review_id === reviewId));
    },
    async listComments(_tenant, reviewId, query, filters) {
      const items = comments
        .filter((comment) => comment.review_id === reviewId)
        .filter(
          (comment) =>
            (filters.severity === undefined || comment.severity === filters.severity) &&
            (filters.path === undefined || comment.path === filters.path),
        );
      const ordered = query.order === 'asc' ? items : [...items].reverse();
      return {
        items: structuredClone(ordered.slice((query.page - 1) * query.perPage, query.page * query.perPage)),
        total: items.length,
        nextCursor: fakeNextCursor(query, items.length),
      };
    },
  };
  return {
    repository,
    events,
    comments,
    addProject: (tenant: Tenant, id: string) => projects.add(keyOf(tenant, id)),
    stopWorkflow: (tenant: Tenant, id: string) => stoppedWorkflows.add(keyOf(tenant, id)),
    stored: (tenant: Tenant, id: string) => structuredClone(reviews.get(keyOf(tenant, id))),
    put: (tenant: Tenant, review: Review) => reviews.set(keyOf(tenant, review.id), structuredClone(review)),
  };
};
