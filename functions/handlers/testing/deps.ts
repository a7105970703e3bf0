import { systemClock } from '../../core/clock';
import type { TestDeps, TestJobDeps } from '../../core/testing/test-use-cases';
import type { TestJob } from '../../core/testing/test-records';
import { configuredProviders } from '../../adapters/ai/configured-providers';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoTestRepository, dynamoTestWrites } from '../../adapters/dynamodb/testing-repository';
import { asyncJobsFromEnvironment } from '../../adapters/jobs/async-jobs';

export const testJobsFromEnvironment = () =>
  asyncJobsFromEnvironment<TestJob>({ module: 'LOCAL_TEST_JOBS_MODULE', function: 'TESTS_FUNCTION_NAME' });

/** For the routes that start jobs (generate, run): one suite or run at a time. The reads wire their repository in their own file. */
export const testJobDeps = (jobsOf: () => TestJobDeps['jobs']): TestJobDeps => ({
  tests: dynamoTestWrites(tableFromEnvironment()),
  jobs: jobsOf(),
  clock: systemClock,
  configuredProviders: () => configuredProviders(process.env),
});

/** For the dashboard's test pages, which list and read. */
export const testReadDeps = (): Pick<TestDeps, 'tests'> => ({ tests: dynamoTestRepository(tableFromEnvironment()) });
