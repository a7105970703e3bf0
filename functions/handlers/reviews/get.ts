import { getReview } from '../../core/reviews/review-use-cases';
import { viewOfReview } from '../../core/reviews/views';
import { apiReadHandler } from '../../http/api-handler';
import { getReviewRoute } from '../../routes/reviews';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoReviewReader } from '../../adapters/dynamodb/review-repository';

// A read wires the one call it makes: no review writes, no list paging.
const deps = { reviews: dynamoReviewReader(tableFromEnvironment()) };

export const handler = apiReadHandler(getReviewRoute, async ({ principal, params }) => ({
  data: viewOfReview(await getReview(principal, params.id, deps)),
}));
