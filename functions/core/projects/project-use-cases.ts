import { type Clock, isoTime } from '../clock';
import { conflict, notFound, validationError } from '../errors';
import { isId, newId } from '../ids';
import { checkIfMatch, preconditionFailed } from '../preconditions';
import { changesNothing } from '../no-op-change';
import { changeOptimistically } from '../optimistic-update';
import type { ListQuery, Page } from '../pagination';
import type { Tenant } from '../tenancy';
import type { Project, ProjectChanges, ProjectRepository, ProjectSort } from './project';

export interface ProjectDeps {
  projects: ProjectRepository;
  clock: Clock;
  /** Why this deployment refuses a repository address (a `file:///` one outside the local runtime, a private address), or null. */
  repositoryProblem(address: string): string | null;
}

const checkRepository = (address: string | undefined, deps: ProjectDeps): void => {
  const problem = address === undefined ? null : deps.repositoryProblem(address);
  if (problem) throw validationError([{ field: 'repository', issue: problem }]);
};

export interface NewProject {
  name: string;
  repository: string;
  description?: string;
}

export const createProject = async (tenant: Tenant, input: NewProject, deps: ProjectDeps): Promise<Project> => {
  checkRepository(input.repository, deps);
  const now = deps.clock.now();
  const at = isoTime(now);
  const project: Project = {
    id: newId('project', now),
    name: input.name,
    repository: input.repository,
    description: input.description ?? '',
    created_at: at,
    updated_at: at,
  };
  await deps.projects.create(tenant, project);
  return project;
};

/** A malformed id names no project: 404 without a lookup. */
const checkedId = (id: string): string => {
  if (!isId('project', id)) throw notFound('Project');
  return id;
};

export const getProject = async (tenant: Tenant, id: string, deps: { projects: Pick<ProjectRepository, 'get'> }): Promise<Project> => {
  const project = await deps.projects.get(tenant, checkedId(id));
  if (!project) throw notFound('Project');
  return project;
};

/**
 * The project an `If-Match` is judged against, read consistently (undefined without one): 404 when
 * there is none, 412 when the tag names another representation.
 */
const matchedProject = async (
  tenant: Tenant,
  id: string,
  ifMatch: string | undefined,
  deps: { projects: Pick<ProjectRepository, 'get'> },
): Promise<Project | undefined> => {
  if (ifMatch === undefined) return undefined;
  const current = await deps.projects.get(tenant, id, { consistent: true });
  if (!current) throw notFound('Project');
  checkIfMatch(ifMatch, current);
  return current;
};

/**
 * Written only over the project as read (read again and retried when something else changed it
 * meanwhile), so a change that gives every field as stored is known to be one and writes nothing:
 * the project is answered as it is, its `updated_at` and `ETag` unmoved. An `If-Match` is judged
 * first, so a stale one is 412 even then.
 */
export const updateProject = async (
  tenant: Tenant,
  id: string,
  changes: ProjectChanges,
  deps: ProjectDeps,
  ifMatch?: string,
): Promise<Project> => {
  checkRepository(changes.repository, deps);
  const updated = await changeOptimistically(
    `project ${id}`,
    () => deps.projects.get(tenant, checkedId(id), { consistent: true }),
    (current) => {
      checkIfMatch(ifMatch, current);
      return changesNothing(current, changes) ? null : changes;
    },
    async (current, wanted) => {
      const stored = await deps.projects.update(tenant, id, wanted, isoTime(deps.clock.now()), current);
      if (stored === undefined) throw notFound('Project');
      if (stored !== 'changed') return stored;
      if (ifMatch !== undefined) throw preconditionFailed();
      return null;
    },
  );
  if (!updated) throw notFound('Project');
  return updated;
};

export const deleteProject = async (
  tenant: Tenant,
  id: string,
  deps: { projects: Pick<ProjectRepository, 'get' | 'delete'> },
  ifMatch?: string,
): Promise<void> => {
  const expected = await matchedProject(tenant, checkedId(id), ifMatch, deps);
  const outcome = await deps.projects.delete(tenant, id, expected);
  if (outcome === 'not_found') throw notFound('Project');
  if (outcome === 'changed') throw preconditionFailed();
  if (outcome === 'busy') throw conflict('The project has a workflow or deployment in progress; cancel it or wait for it to finish.');
};

export const listProjects = (
  tenant: Tenant,
  query: ListQuery<ProjectSort>,
  deps: { projects: Pick<ProjectRepository, 'list'> },
): Promise<Page<Project>> => deps.projects.list(tenant, query);
