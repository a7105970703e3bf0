import { deleteProject } from '../../core/projects/project-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { deleteProjectRoute } from '../../routes/projects';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';

// No repository address rules: only create and update check an address.
const deps = { projects: dynamoProjectRepository(tableFromEnvironment()) };

export const handler = apiReadHandler(deleteProjectRoute, async ({ principal, params, event }) => {
  await deleteProject(principal, params.id, deps, event.headers['if-match']);
  return { empty: true };
});
