import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';

export interface Project {
  id: string;
  name: string;
  repository: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export type ProjectChanges = Partial<Pick<Project, 'name' | 'repository' | 'description'>>;

export const projectSortFields = ['created_at', 'name', 'updated_at'] as const;
export type ProjectSort = (typeof projectSortFields)[number];

export interface ProjectRepository {
  create(tenant: Tenant, project: Project): Promise<void>;
  get(tenant: Tenant, id: string): Promise<Project | undefined>;
  /** Undefined when there is no such project. */
  update(tenant: Tenant, id: string, changes: ProjectChanges, updatedAt: string): Promise<Project | undefined>;
  /** `busy` while a workflow of the project is queued or running (nothing is deleted then). */
  delete(tenant: Tenant, id: string): Promise<'deleted' | 'not_found' | 'busy'>;
  list(tenant: Tenant, query: ListQuery<ProjectSort>): Promise<Page<Project>>;
}
