import { createReview } from '../../core/reviews/review-use-cases';
import { viewOfReview } from '../../core/reviews/views';
import { reviewJobsFromEnvironment } from '../../adapters/reviews/review-jobs';
import { apiHandler } from '../../http/api-handler';
import { createReviewRoute } from '../../routes/reviews';
import { reviewDeps } from './deps';

const deps = reviewDeps(reviewJobsFromEnvironment);

export const handler = apiHandler(createReviewRoute, async ({ principal, body }) => {
  const review = await createReview(principal, body, deps);
  return { data: viewOfReview(review), location: `/v1/reviews/${review.id}` };
});
