import { deleteProject } from '../../core/projects/project-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { deleteProjectRoute } from '../../routes/projects';
import { projectDeps } from './deps';

const deps = projectDeps();

export const handler = apiReadHandler(deleteProjectRoute, async ({ principal, params }) => {
  await deleteProject(principal, params.id, deps);
  return { empty: true };
});
