import { pageMeta } from '../../core/pagination';
import { listTests } from '../../core/testing/test-use-cases';
import { viewOfTestObject } from '../../core/testing/views';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listTestsRoute } from '../../routes/testing';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoTestRepository } from '../../adapters/dynamodb/testing-repository';

const deps = { tests: dynamoTestRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(listTestsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const filters = { project_id: params.project_id, object: params.object, status: params.status };
  const page = await listTests(principal, query, filters, deps);
  return { list: page.items.map(viewOfTestObject), meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
