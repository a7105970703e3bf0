import { getTestResults } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiHandler } from '../../http/api-handler';
import { getTestResultsRoute } from '../../routes/testing';
import { testDeps } from './deps';

const deps = testDeps();

export const handler = apiHandler(getTestResultsRoute, async ({ principal, params }) => ({
  data: viewOfTestObject(await getTestResults(principal, params.id, deps)),
}));
