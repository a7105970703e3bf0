import { pageMeta } from '../../core/pagination';
import { listReviewComments } from '../../core/reviews/review-use-cases';
import { viewOfComment } from '../../core/reviews/views';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listReviewCommentsRoute } from '../../routes/reviews';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoReviewCommentList, dynamoReviewReader } from '../../adapters/dynamodb/review-repository';

// The review (it must exist) and its comments: no review writes, no review list.
const table = tableFromEnvironment();
const deps = { reviews: { ...dynamoReviewReader(table), ...dynamoReviewCommentList(table) } };

export const handler = apiReadHandler(listReviewCommentsRoute, async ({ principal, params, query: input }) => {
  const query = toListQuery(input, 'created_at');
  const page = await listReviewComments(principal, params.id, query, { severity: input.severity, path: input.path }, deps);
  return { list: page.items.map(viewOfComment), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
