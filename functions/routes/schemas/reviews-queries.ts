import * as v from 'valibot';
import { reviewStatuses } from '../../core/reviews/review';
import { severities } from '../../core/security/scanner';
import { listQuery, picklistParam, idFilterParam } from './common';

export const listReviewsQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    project_id: v.optional(idFilterParam('project', "Only this project's reviews.")),
    status: v.optional(picklistParam(reviewStatuses, 'Only reviews in this status.')),
  }))();

export const listReviewCommentsQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    severity: v.optional(picklistParam(severities, 'Only comments of this severity.')),
    path: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, 'must name a file; leave it out for every file'),
        v.maxLength(1024),
        v.description('Only comments on this file (its head-side path).'),
      ),
    ),
  }))();
