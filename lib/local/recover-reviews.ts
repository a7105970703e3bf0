import { dynamoReviewRepository } from '../../functions/adapters/dynamodb/review-repository';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { systemClock } from '../../functions/core/clock';
import { failReview } from '../../functions/core/reviews/review-change';
import type { scanFor } from './recover-orphans';

/**
 * Reviews run in the local runtime's process: after a restart, one that was queued or running has
 * nothing left to finish it. It fails with its `review.completed`, saying why.
 */
export const failOrphanedReviews = async (table: TableRef, scan: typeof scanFor): Promise<number> => {
  const deps = { reviews: dynamoReviewRepository(table), clock: systemClock };
  let failed = 0;
  for await (const ref of scan(
    table,
    entityTypes.review,
    '#status IN (:queued, :running)',
    { '#status': 'status' },
    {
      ':queued': 'queued',
      ':running': 'running',
    },
  )) {
    await failReview(
      deps,
      { accountId: ref.account_id, mode: ref.mode },
      ref.id,
      'The local runtime stopped while this review ran; create it again.',
    );
    failed += 1;
  }
  return failed;
};
