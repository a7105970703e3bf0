import { systemClock } from '../../core/clock';
import type { TestDeps } from '../../core/testing/test-use-cases';
import type { TestJob } from '../../core/testing/test-records';
import { configuredProviders } from '../../adapters/ai/configured-providers';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoTestRepository } from '../../adapters/dynamodb/testing-repository';
import { asyncJobsFromEnvironment } from '../../adapters/jobs/async-jobs';

const noJobs = {
  start: async () => {
    throw new Error('this function starts no test jobs');
  },
};

export const testJobsFromEnvironment = () =>
  asyncJobsFromEnvironment<TestJob>({ module: 'LOCAL_TEST_JOBS_MODULE', function: 'TESTS_FUNCTION_NAME' });

/** For the routes that start jobs; the reads wire their repository in their own file. */
export const testDeps = (jobsOf: () => TestDeps['jobs'] = () => noJobs): TestDeps => ({
  tests: dynamoTestRepository(tableFromEnvironment()),
  jobs: jobsOf(),
  clock: systemClock,
  configuredProviders: () => configuredProviders(process.env),
});
