import { pageMeta } from '../../core/pagination';
import { listProjects } from '../../core/projects/project-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { toListQuery } from '../../http/list-query';
import { listProjectsRoute } from '../../routes/projects';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';

// No repository address rules: only create and update check an address.
const deps = { projects: dynamoProjectRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(listProjectsRoute, async ({ principal, query: params }) => {
  const query = toListQuery(params, 'created_at');
  const page = await listProjects(principal, query, deps);
  return { list: page.items, meta: pageMeta(query, page.total), nextCursor: page.nextCursor };
});
