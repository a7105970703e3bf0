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
  /** `consistent`: read what the last write stored (an `If-Match` is judged against it). */
  get(tenant: Tenant, id: string, options?: { consistent?: boolean }): Promise<Project | undefined>;
  /**
   * Undefined when there is no such project. With `expected` (an `If-Match`), only while the project
   * is still as it was read: `changed` otherwise, and nothing is written.
   */
  update(
    tenant: Tenant,
    id: string,
    changes: ProjectChanges,
    updatedAt: string,
    expected?: Project,
  ): Promise<Project | undefined | 'changed'>;
  /**
   * `busy` while a workflow of the project is queued or running (nothing is deleted then); with
   * `expected`, `changed` when the project is no longer as it was read.
   */
  delete(tenant: Tenant, id: string, expected?: Project): Promise<'deleted' | 'not_found' | 'busy' | 'changed'>;
  list(tenant: Tenant, query: ListQuery<ProjectSort>): Promise<Page<Project>>;
}
