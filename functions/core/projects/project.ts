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
  /** False when there is no such project. */
  delete(tenant: Tenant, id: string): Promise<boolean>;
  list(tenant: Tenant, query: ListQuery<ProjectSort>): Promise<Page<Project>>;
}
