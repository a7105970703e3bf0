import { getTestResults } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiReadHandler } from '../../http/api-handler';
import { getTestResultsRoute } from '../../routes/testing';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoTestRepository } from '../../adapters/dynamodb/testing-repository';

const deps = { tests: dynamoTestRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(getTestResultsRoute, async ({ principal, params }) => ({
  data: viewOfTestObject(await getTestResults(principal, params.id, deps)),
}));
