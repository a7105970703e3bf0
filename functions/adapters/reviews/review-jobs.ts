import type { ReviewJob, ReviewJobs } from '../../core/reviews/review-jobs';
import { asyncJobsFromEnvironment } from '../jobs/async-jobs';

export const reviewJobsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): ReviewJobs =>
  asyncJobsFromEnvironment<ReviewJob>({ module: 'LOCAL_REVIEW_JOBS_MODULE', function: 'REVIEW_FUNCTION_NAME' }, env);
