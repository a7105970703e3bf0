import { systemClock } from '../../core/clock';
import type { ReviewJobs } from '../../core/reviews/review-jobs';
import type { ReviewDeps } from '../../core/reviews/review-use-cases';
import { configuredProviders } from '../../adapters/ai/configured-providers';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoReviewRepository } from '../../adapters/dynamodb/review-repository';

const noJobs: ReviewJobs = {
  start: async () => {
    throw new Error('this function starts no reviews');
  },
};

/** For the routes that start jobs; the reads wire their repository in their own file. */
export const reviewDeps = (jobsOf: () => ReviewJobs = () => noJobs): ReviewDeps => ({
  reviews: dynamoReviewRepository(tableFromEnvironment()),
  jobs: jobsOf(),
  clock: systemClock,
  configuredProviders: () => configuredProviders(process.env),
});
