import type { ListQuery, Page } from '../../../functions/core/pagination';
import { fakeNextCursor } from './created-order';
import { entityTagOf } from '../../../functions/core/preconditions';
import type { Project, ProjectRepository, ProjectSort } from '../../../functions/core/projects/project';
import type { Tenant } from '../../../functions/core/tenancy';

/** The order of the table's keys: plain code-unit order (`<` on strings), never the locale's. */
const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The key each sort reads, as the DynamoDB adapter builds it: names lower-cased, the id breaking ties (ids are ULIDs, in creation order). */
const sortKey = (project: Project, sort: ProjectSort): string =>
  sort === 'created_at' ? project.id : `${sort === 'name' ? project.name.toLowerCase() : project.updated_at}\u0001${project.id}`;

/**
 * In-memory ProjectRepository with the DynamoDB adapter's rules (held to them by
 * test/contract/project-repository.test.ts): projects kept per account and mode, names sorted
 * case-insensitively, a write given `expected` refused as `changed` once the project is not as read, and `delete` answering `busy` while work runs on the project. `startWork` and
 * `endWork` stand for what creating and finishing a workflow or deployment does to the project.
 */
export const inMemoryProjectRepository = () => {
  const projects = new Map<string, Project>();
  const activeWork = new Map<string, number>();
  const id = (tenant: Tenant, projectId: string) => `${tenant.accountId}|${tenant.mode}|${projectId}`;
  const repository: ProjectRepository = {
    async create(tenant, project) {
      if (projects.has(id(tenant, project.id))) throw new Error(`project ${project.id} exists already`);
      projects.set(id(tenant, project.id), { ...project });
    },
    async get(tenant, projectId) {
      const project = projects.get(id(tenant, projectId));
      return project && { ...project };
    },
    async update(tenant, projectId, changes, updatedAt, expected) {
      const project = projects.get(id(tenant, projectId));
      if (!project) return undefined;
      if (expected && entityTagOf(project) !== entityTagOf(expected)) return 'changed';
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      Object.assign(project, defined, { updated_at: updatedAt });
      return { ...project };
    },
    async delete(tenant, projectId, expected) {
      const project = projects.get(id(tenant, projectId));
      if (!project) return 'not_found';
      if (expected && entityTagOf(project) !== entityTagOf(expected)) return 'changed';
      if ((activeWork.get(id(tenant, projectId)) ?? 0) > 0) return 'busy';
      projects.delete(id(tenant, projectId));
      return 'deleted';
    },
    async list(tenant, query: ListQuery<ProjectSort>): Promise<Page<Project>> {
      const prefix = id(tenant, '');
      const direction = query.order === 'asc' ? 1 : -1;
      const matching = [...projects.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, project]) => project)
        .filter((p) => query.createdFrom === undefined || Date.parse(p.created_at) >= query.createdFrom)
        .filter((p) => query.createdUntil === undefined || Date.parse(p.created_at) < query.createdUntil)
        .sort((a, b) => direction * byKey(sortKey(a, query.sort), sortKey(b, query.sort)));
      const start = (query.page - 1) * query.perPage;
      return {
        items: matching.slice(start, start + query.perPage).map((p) => ({ ...p })),
        total: matching.length,
        nextCursor: fakeNextCursor(query, matching.length),
      };
    },
  };
  const change = (tenant: Tenant, projectId: string, by: number): void => {
    activeWork.set(id(tenant, projectId), (activeWork.get(id(tenant, projectId)) ?? 0) + by);
  };
  return {
    ...repository,
    startWork: (tenant: Tenant, projectId: string) => change(tenant, projectId, 1),
    endWork: (tenant: Tenant, projectId: string) => change(tenant, projectId, -1),
  };
};
