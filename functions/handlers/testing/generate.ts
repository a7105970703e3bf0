import { generateTests } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiHandler } from '../../http/api-handler';
import { generateTestsRoute } from '../../routes/testing';
import { testJobDeps, testJobsFromEnvironment } from './deps';

const deps = testJobDeps(testJobsFromEnvironment);

export const handler = apiHandler(generateTestsRoute, async ({ principal, body }) => {
  const suite = await generateTests(principal, body, deps);
  return { data: viewOfTestObject(suite), location: `/v1/tests/${suite.id}` };
});
