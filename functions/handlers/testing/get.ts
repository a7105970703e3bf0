import { getTestObject } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiHandler } from '../../http/api-handler';
import { getTestRoute } from '../../routes/testing';
import { testDeps } from './deps';

const deps = testDeps();

export const handler = apiHandler(getTestRoute, async ({ principal, params }) => ({
  data: viewOfTestObject(await getTestObject(principal, params.id, deps)),
}));
