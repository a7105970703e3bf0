import type { ListQuery, Page } from '../../../functions/core/pagination';
import type { Project, ProjectRepository, ProjectSort } from '../../../functions/core/projects/project';
import type { Tenant } from '../../../functions/core/tenancy';

/** In-memory ProjectRepository: projects are kept per account and mode, as in the table. */
export const inMemoryProjectRepository = (): ProjectRepository => {
  const projects = new Map<string, Project>();
  const id = (tenant: Tenant, projectId: string) => `${tenant.accountId}|${tenant.mode}|${projectId}`;
  return {
    async create(tenant, project) {
      projects.set(id(tenant, project.id), { ...project });
    },
    async get(tenant, projectId) {
      const project = projects.get(id(tenant, projectId));
      return project && { ...project };
    },
    async update(tenant, projectId, changes, updatedAt) {
      const project = projects.get(id(tenant, projectId));
      if (!project) return undefined;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      Object.assign(project, defined, { updated_at: updatedAt });
      return { ...project };
    },
    async delete(tenant, projectId) {
      return projects.delete(id(tenant, projectId)) ? 'deleted' : 'not_found';
    },
    async list(tenant, query: ListQuery<ProjectSort>): Promise<Page<Project>> {
      const prefix = id(tenant, '');
      const direction = query.order === 'asc' ? 1 : -1;
      const matching = [...projects.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, project]) => project)
        .filter((p) => query.createdFrom === undefined || Date.parse(p.created_at) >= query.createdFrom)
        .filter((p) => query.createdUntil === undefined || Date.parse(p.created_at) < query.createdUntil)
        .sort((a, b) => direction * (a[query.sort].localeCompare(b[query.sort]) || a.id.localeCompare(b.id)));
      const start = (query.page - 1) * query.perPage;
      return { items: matching.slice(start, start + query.perPage).map((p) => ({ ...p })), total: matching.length };
    },
  };
};
