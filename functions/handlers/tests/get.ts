import { getTestObject } from '../../core/tests/test-use-cases';
import { viewOfTestObject } from '../../core/tests/views';
import { apiHandler } from '../../http/api-handler';
import { getTestRoute } from '../../routes/tests';
import { testDeps } from './deps';

const deps = testDeps();

export const handler = apiHandler(getTestRoute, async ({ principal, params }) => ({
  data: viewOfTestObject(await getTestObject(principal, params.id, deps)),
}));
