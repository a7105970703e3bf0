import { runTests } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiHandler } from '../../http/api-handler';
import { runTestsRoute } from '../../routes/testing';
import { testJobDeps, testJobsFromEnvironment } from './deps';

const deps = testJobDeps(testJobsFromEnvironment);

export const handler = apiHandler(runTestsRoute, async ({ principal, body }) => {
  const run = await runTests(principal, body, deps);
  return { data: viewOfTestObject(run), location: `/v1/tests/${run.id}` };
});
