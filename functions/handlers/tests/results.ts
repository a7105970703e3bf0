import { getTestResults } from '../../core/tests/test-use-cases';
import { viewOfTestObject } from '../../core/tests/views';
import { apiHandler } from '../../http/api-handler';
import { getTestResultsRoute } from '../../routes/tests';
import { testDeps } from './deps';

const deps = testDeps();

export const handler = apiHandler(getTestResultsRoute, async ({ principal, params }) => ({
  data: viewOfTestObject(await getTestResults(principal, params.id, deps)),
}));
