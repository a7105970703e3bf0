import { updateProject } from '../../core/projects/project-use-cases';
import { apiHandler } from '../../http/api-handler';
import { updateProjectRoute } from '../../routes/projects';
import { projectDeps } from './deps';
import { taggedReply } from '../../http/entity-tag';

const deps = projectDeps();

export const handler = apiHandler(updateProjectRoute, async ({ principal, params, body, event }) =>
  taggedReply(await updateProject(principal, params.id, body, deps, event.headers['if-match'])),
);
