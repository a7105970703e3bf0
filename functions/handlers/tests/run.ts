import { runTests } from '../../core/tests/test-use-cases';
import { viewOfTestObject } from '../../core/tests/views';
import { apiHandler } from '../../http/api-handler';
import { runTestsRoute } from '../../routes/tests';
import { testDeps, testJobsFromEnvironment } from './deps';

const deps = testDeps(testJobsFromEnvironment);

export const handler = apiHandler(runTestsRoute, async ({ principal, body }) => {
  const run = await runTests(principal, body, deps);
  return { data: viewOfTestObject(run), location: `/v1/tests/${run.id}` };
});
