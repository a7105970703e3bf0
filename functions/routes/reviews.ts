import { idParams } from './schemas/common';
import { createReviewBody } from './schemas/reviews-bodies';
import { listReviewCommentsQuery, listReviewsQuery } from './schemas/reviews-queries';
import { reviewCommentSchema, reviewSchema } from './schemas/reviews';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Reviews';

export const createReviewRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createReview',
  summary: 'Review a change',
  description:
    'Queues an AI code review (`rev_…`) of what a pull request from `head` into `base` would show: the diff from their merge base to head. The type check, sast and secrets scanners run first; their results on changed lines become comments of their own, then the AI provider reviews the diff with the surrounding code. Events `review.comment.created` per comment, then `review.completed`.',
  tag,
  method: 'POST',
  path: '/v1/reviews',
  handler: 'reviews/create',
  scope: 'write:reviews',
  tableAccess: 'write',
  startsReviewJobs: true,
  body: createReviewBody,
  success: { status: 201, description: 'The new review, `queued`.' },
});

export const listReviewsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listReviews',
  summary: 'List code reviews',
  tag,
  method: 'GET',
  path: '/v1/reviews',
  handler: 'reviews/list',
  scope: 'read:reviews',
  tableAccess: 'read',
  query: listReviewsQuery,
  success: { status: 200, description: 'A page of reviews.', list: true },
});

export const getReviewRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getReview',
  summary: 'Get a code review',
  tag,
  method: 'GET',
  path: '/v1/reviews/{id}',
  handler: 'reviews/get',
  scope: 'read:reviews',
  tableAccess: 'read',
  params: idParams,
  success: {
    status: 200,
    description: 'The review: status, summary, verdict, comment counts, the files reviewed, skipped and not reviewed.',
  },
  errors: [404],
});

export const listReviewCommentsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listReviewComments',
  summary: "List a review's comments",
  description: "In the order they were made, which is the diff's reading order (path, then line): `order=asc` reads top to bottom.",
  tag,
  method: 'GET',
  path: '/v1/reviews/{id}/comments',
  handler: 'reviews/list-comments',
  scope: 'read:reviews',
  tableAccess: 'read',
  params: idParams,
  query: listReviewCommentsQuery,
  success: { status: 200, description: 'A page of comments.', list: true },
  errors: [404],
});

export const reviewRoutes = [createReviewRoute, listReviewsRoute, getReviewRoute, listReviewCommentsRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const reviewResponses = {
  createReview: reviewSchema,
  listReviews: reviewSchema,
  getReview: reviewSchema,
  listReviewComments: reviewCommentSchema,
} satisfies ResponseSchemas;
