import { getReview } from '../../core/reviews/review-use-cases';
import { viewOfReview } from '../../core/reviews/views';
import { apiReadHandler } from '../../http/api-handler';
import { getReviewRoute } from '../../routes/reviews';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoReviewRepository } from '../../adapters/dynamodb/review-repository';

const deps = { reviews: dynamoReviewRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(getReviewRoute, async ({ principal, params }) => ({
  data: viewOfReview(await getReview(principal, params.id, deps)),
}));
