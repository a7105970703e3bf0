import { decodeTime } from 'ulid';
import { ApiError } from '../../functions/core/errors';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../functions/core/projects/project-use-cases';
import type { Tenant } from '../../functions/core/tenancy';
import { controlledClock } from './fakes/clock';
import { inMemoryProjectRepository } from './fakes/project-repository';
import { statusOf } from '../../functions/http/error-status';

const tenant: Tenant = { accountId: 'acct_1', mode: 'live' };
const newProject = { name: 'Checkout', repository: 'https://github.com/example/checkout' };

const setUp = () => {
  const clock = controlledClock();
  return { clock, deps: { projects: inMemoryProjectRepository(), clock } };
};

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return `${statusOf(error)} ${error.code}`;
    throw error;
  }
  return 'no error';
};

describe('project use cases', () => {
  it('create gives a proj_ + ULID id whose time is created_at, and updated_at = created_at', async () => {
    const { clock, deps } = setUp();
    const project = await createProject(tenant, newProject, deps);
    expect(project.id).toMatch(/^proj_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(project.created_at).toBe(new Date(clock.now()).toISOString());
    expect(decodeTime(project.id.slice('proj_'.length))).toBe(Date.parse(project.created_at));
    expect(project.updated_at).toBe(project.created_at);
    expect(project).toEqual({
      ...newProject,
      id: project.id,
      description: '',
      created_at: project.created_at,
      updated_at: project.updated_at,
    });
  });

  it('create keeps the description it is given, and stores the project', async () => {
    const { deps } = setUp();
    const project = await createProject(tenant, { ...newProject, description: 'Payments' }, deps);
    expect(project.description).toBe('Payments');
    await expect(getProject(tenant, project.id, deps)).resolves.toEqual(project);
  });

  it('ids of later projects sort after earlier ones', async () => {
    const { clock, deps } = setUp();
    const first = await createProject(tenant, newProject, deps);
    clock.advance(1);
    const second = await createProject(tenant, newProject, deps);
    expect(second.id > first.id).toBe(true);
  });

  it('update changes the given fields and updated_at, not created_at', async () => {
    const { clock, deps } = setUp();
    const project = await createProject(tenant, newProject, deps);
    clock.advance(5_000);
    const updated = await updateProject(tenant, project.id, { name: 'Checkout v2' }, deps);
    expect(updated).toEqual({ ...project, name: 'Checkout v2', updated_at: new Date(clock.now()).toISOString() });
    expect(updated.updated_at > updated.created_at).toBe(true);
  });

  it('get, update and delete of a missing project answer 404 not_found', async () => {
    const { deps } = setUp();
    expect(await codeOf(getProject(tenant, 'proj_missing', deps))).toBe('404 not_found');
    expect(await codeOf(updateProject(tenant, 'proj_missing', { name: 'x' }, deps))).toBe('404 not_found');
    expect(await codeOf(deleteProject(tenant, 'proj_missing', deps))).toBe('404 not_found');
  });

  it('delete removes the project: it is not found afterwards', async () => {
    const { deps } = setUp();
    const project = await createProject(tenant, newProject, deps);
    await deleteProject(tenant, project.id, deps);
    expect(await codeOf(getProject(tenant, project.id, deps))).toBe('404 not_found');
    expect(await codeOf(deleteProject(tenant, project.id, deps))).toBe('404 not_found');
  });

  it('a project of another mode or account is not found', async () => {
    const { deps } = setUp();
    const project = await createProject(tenant, newProject, deps);
    expect(await codeOf(getProject({ ...tenant, mode: 'test' }, project.id, deps))).toBe('404 not_found');
    expect(await codeOf(getProject({ accountId: 'acct_2', mode: 'live' }, project.id, deps))).toBe('404 not_found');
  });

  it('list hands the query to the repository and returns its page', async () => {
    const { clock, deps } = setUp();
    const names = ['a', 'b', 'c'];
    for (const name of names) {
      await createProject(tenant, { ...newProject, name }, deps);
      clock.advance(1);
    }
    const page = await listProjects(tenant, { page: 1, perPage: 2, sort: 'created_at', order: 'desc' }, deps);
    expect(page.total).toBe(3);
    expect(page.items.map((p) => p.name)).toEqual(['c', 'b']);
  });
});
