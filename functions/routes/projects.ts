import { idParams } from './schemas/common';
import { createProjectBody, updateProjectBody } from './schemas/projects-bodies';
import { listProjectsQuery } from './schemas/projects-queries';
import { projectSchema } from './schemas/projects';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Projects';

export const listProjectsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listProjects',
  summary: 'List projects',
  tag,
  method: 'GET',
  path: '/v1/projects',
  handler: 'projects/list',
  scope: 'read:projects',
  tableAccess: 'read',
  query: listProjectsQuery,
  success: { status: 200, description: 'A page of projects.', list: true },
});

export const createProjectRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createProject',
  summary: 'Create a project',
  tag,
  method: 'POST',
  path: '/v1/projects',
  handler: 'projects/create',
  scope: 'write:projects',
  tableAccess: 'write',
  body: createProjectBody,
  entityTag: true,
  success: { status: 201, description: 'The new project; `Location` names it.' },
});

export const getProjectRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getProject',
  summary: 'Get a project',
  tag,
  method: 'GET',
  path: '/v1/projects/{id}',
  handler: 'projects/get',
  scope: 'read:projects',
  tableAccess: 'read',
  params: idParams,
  entityTag: true,
  success: { status: 200, description: 'The project.' },
  errors: [404],
});

export const updateProjectRoute = /* @__PURE__ */ defineRoute({
  operationId: 'updateProject',
  summary: 'Change a project',
  description:
    "Takes any non-empty subset of name, repository and description; any other field is refused. One giving every field as stored writes nothing: the project is answered as it is, its `updated_at` and ETag unmoved. A changed `repository` applies to work that starts afterwards: a running workflow keeps the repository, branch and commit its intake checked out (`outputs.repository`, `outputs.commit`), a started deployment and a rollback to it keep the repository it deployed, and a generated suite's runs keep the repository it was generated from.",
  tag,
  method: 'PATCH',
  path: '/v1/projects/{id}',
  handler: 'projects/update',
  scope: 'write:projects',
  tableAccess: 'write',
  params: idParams,
  body: updateProjectBody,
  entityTag: true,
  success: { status: 200, description: 'The project as changed.' },
  errors: [404],
});

export const deleteProjectRoute = /* @__PURE__ */ defineRoute({
  operationId: 'deleteProject',
  summary: 'Delete a project',
  tag,
  method: 'DELETE',
  path: '/v1/projects/{id}',
  handler: 'projects/delete',
  scope: 'write:projects',
  tableAccess: 'write',
  params: idParams,
  entityTag: true,
  success: { status: 204, description: 'Deleted; no body.' },
  errors: [404, 409],
});

export const projectRoutes = [listProjectsRoute, createProjectRoute, getProjectRoute, updateProjectRoute, deleteProjectRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const projectResponses = {
  listProjects: projectSchema,
  createProject: projectSchema,
  getProject: projectSchema,
  updateProject: projectSchema,
} satisfies ResponseSchemas;
