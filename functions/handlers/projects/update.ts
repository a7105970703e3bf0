import { updateProject } from '../../core/projects/project-use-cases';
import { apiHandler } from '../../http/api-handler';
import { updateProjectRoute } from '../../routes/projects';
import { projectDeps } from './deps';

const deps = projectDeps();

export const handler = apiHandler(updateProjectRoute, async ({ principal, params, body }) => ({
  data: await updateProject(principal, params.id, body, deps),
}));
