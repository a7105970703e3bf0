import { getProject } from '../../core/projects/project-use-cases';
import { apiReadHandler } from '../../http/api-handler';
import { getProjectRoute } from '../../routes/projects';
import { projectDeps } from './deps';

const deps = projectDeps();

export const handler = apiReadHandler(getProjectRoute, async ({ principal, params }) => ({
  data: await getProject(principal, params.id, deps),
}));
