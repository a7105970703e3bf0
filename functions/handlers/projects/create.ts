import { createProject } from '../../core/projects/project-use-cases';
import { apiHandler } from '../../http/api-handler';
import { createProjectRoute } from '../../routes/projects';
import { projectDeps } from './deps';
import { entityTagOf } from '../../core/preconditions';

const deps = projectDeps();

export const handler = apiHandler(createProjectRoute, async ({ principal, body }) => {
  const project = await createProject(principal, body, deps);
  return { data: project, location: `/v1/projects/${project.id}`, etag: entityTagOf(project) };
});
