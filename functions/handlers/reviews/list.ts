import { pageMeta } from '../../core/pagination';
import { listReviews } from '../../core/reviews/review-use-cases';
import { viewOfReview } from '../../core/reviews/views';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listReviewsRoute } from '../../routes/reviews';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoReviewList } from '../../adapters/dynamodb/review-repository';

// The list alone: no review writes, no comments.
const deps = { reviews: dynamoReviewList(tableFromEnvironment()) };

export const handler = apiReadHandler(listReviewsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listReviews(principal, query, { project_id: params.project_id, status: params.status }, deps);
  return { list: page.items.map(viewOfReview), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
