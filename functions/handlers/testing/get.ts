import { ApiError } from '../../core/errors';
import { getTestObject } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiReadHandler } from '../../http/api-handler';
import { getTestRoute } from '../../routes/testing';
import { testingEndpoints } from '../../routes/testing-endpoints';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoTestRepository } from '../../adapters/dynamodb/testing-repository';

const deps = { tests: dynamoTestRepository(tableFromEnvironment()) };

/**
 * API Gateway sends `GET /v1/tests/run` here (no GET route has that path): the path is POST's,
 * so the answer is the 405 the local server gives too, not a 404 for a test named `run`.
 */
const methodsOfLiteralPath = (id: string): string[] =>
  testingEndpoints.filter((endpoint) => endpoint.path === `/v1/tests/${id}`).map((endpoint) => endpoint.method);

export const handler = apiReadHandler(getTestRoute, async ({ principal, params }) => {
  const allowed = methodsOfLiteralPath(params.id);
  if (allowed.length > 0) {
    throw new ApiError('method_not_allowed', `/v1/tests/${params.id} does not allow GET; it allows ${allowed.join(', ')}.`, undefined, {
      Allow: allowed.join(', '),
    });
  }
  return { data: viewOfTestObject(await getTestObject(principal, params.id, deps)) };
});
