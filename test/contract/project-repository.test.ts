import type { ListQuery } from '../../functions/core/pagination';
import type { Project, ProjectRepository, ProjectSort } from '../../functions/core/projects/project';
import type { Tenant } from '../../functions/core/tenancy';
import { newId } from '../../functions/core/ids';
import { newWorkflow } from '../../functions/core/workflows/workflow';
import { dynamoProjectRepository } from '../../functions/adapters/dynamodb/project-repository';
import { dynamoWorkflowRepository } from '../../functions/adapters/dynamodb/workflow-repository';
import { inMemoryProjectRepository } from '../unit/fakes/project-repository';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A ProjectRepository and the way the service starts work on a project (a queued workflow). */
interface Subject {
  projects: ProjectRepository;
  startWork(tenant: Tenant, projectId: string): Promise<void>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const projects = inMemoryProjectRepository();
      return {
        projects,
        async startWork(tenant, id) {
          projects.startWork(tenant, id);
        },
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const workflows = dynamoWorkflowRepository(table);
      return {
        projects: dynamoProjectRepository(table),
        async startWork(tenant, projectId) {
          const workflow = newWorkflow({
            id: newId('workflow', Date.now()),
            project_id: projectId,
            name: 'Work',
            prompt: 'Do it',
            config: { branch: null, ai_provider: 'local', max_iterations: 1, auto_deploy: false, review: true },
            now: new Date().toISOString(),
          });
          if (!(await workflows.create(tenant, workflow, { type: 'workflow.created', data: { id: workflow.id } })))
            throw new Error('the workflow was not created');
        },
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'live' };
const otherMode: Tenant = { accountId: 'acct_contract', mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');

const project = (name: string, minute: number): Project => {
  const at = new Date(start + minute * 60_000).toISOString();
  return {
    id: newId('project', start + minute * 60_000),
    name,
    repository: `https://git.example/${minute}`,
    description: '',
    created_at: at,
    updated_at: at,
  };
};

const query = (sort: ProjectSort, order: 'asc' | 'desc' = 'asc', extra: Partial<ListQuery<ProjectSort>> = {}): ListQuery<ProjectSort> => ({
  page: 1,
  perPage: 50,
  sort,
  order,
  ...extra,
});

describe.each(implementations)('ProjectRepository: %s', (_name, make) => {
  let subject: Subject;
  beforeEach(async () => {
    subject = await make();
  });

  it('gives back what it stored, per account and mode, and refuses a second create of the same id', async () => {
    const created = project('Checkout', 0);
    await subject.projects.create(tenant, created);
    expect(await subject.projects.get(tenant, created.id)).toEqual(created);
    expect(await subject.projects.get(otherMode, created.id)).toBeUndefined();
    await expect(subject.projects.create(tenant, created)).rejects.toThrow();
  });

  it('updates only the fields given, with the new update time; undefined for an unknown project', async () => {
    const created = project('Checkout', 0);
    await subject.projects.create(tenant, created);
    const at = new Date(start + 3_600_000).toISOString();
    expect(await subject.projects.update(tenant, created.id, { description: 'Shop', name: undefined }, at)).toEqual({
      ...created,
      description: 'Shop',
      updated_at: at,
    });
    expect(await subject.projects.update(tenant, newId('project', start), { description: 'x' }, at)).toBeUndefined();
  });

  it('sorts names without regard to case, in code-unit order, the id breaking ties', async () => {
    const names = ['beta', 'Alpha', 'alpha', 'Zeta', 'éclair', 'Émile', 'a b', 'ab'];
    const stored = names.map((name, i) => project(name, i));
    for (const p of stored) await subject.projects.create(tenant, p);
    const expected = [...stored]
      .sort((a, b) => {
        const [x, y] = [`${a.name.toLowerCase()}\u0001${a.id}`, `${b.name.toLowerCase()}\u0001${b.id}`];
        return x < y ? -1 : x > y ? 1 : 0;
      })
      .map((p) => p.name);
    expect(expected).toEqual(['a b', 'ab', 'Alpha', 'alpha', 'beta', 'Zeta', 'éclair', 'Émile']);
    expect((await subject.projects.list(tenant, query('name'))).items.map((p) => p.name)).toEqual(expected);
    expect((await subject.projects.list(tenant, query('name', 'desc'))).items.map((p) => p.name)).toEqual([...expected].reverse());
  });

  it('orders by creation and by last update, counts the whole collection, and pages', async () => {
    const stored = [project('one', 0), project('two', 1), project('three', 2)];
    for (const p of stored) await subject.projects.create(tenant, p);
    await subject.projects.update(tenant, stored[0]!.id, { description: 'touched' }, new Date(start + 3_600_000).toISOString());
    expect((await subject.projects.list(tenant, query('created_at', 'desc'))).items.map((p) => p.name)).toEqual(['three', 'two', 'one']);
    expect((await subject.projects.list(tenant, query('updated_at'))).items.map((p) => p.name)).toEqual(['two', 'three', 'one']);
    const firstPage = await subject.projects.list(tenant, query('created_at', 'asc', { perPage: 2 }));
    expect({ names: firstPage.items.map((p) => p.name), total: firstPage.total }).toEqual({ names: ['one', 'two'], total: 3 });
    const window = await subject.projects.list(
      tenant,
      query('created_at', 'asc', { createdFrom: start + 60_000, createdUntil: start + 120_000 }),
    );
    expect({ names: window.items.map((p) => p.name), total: window.total }).toEqual({ names: ['two'], total: 1 });
    expect((await subject.projects.list(otherMode, query('created_at'))).total).toBe(0);
  });

  it('deletes an idle project once; answers not_found for an unknown one', async () => {
    const created = project('Checkout', 0);
    await subject.projects.create(tenant, created);
    expect(await subject.projects.delete(tenant, created.id)).toBe('deleted');
    expect(await subject.projects.get(tenant, created.id)).toBeUndefined();
    expect(await subject.projects.delete(tenant, created.id)).toBe('not_found');
    expect((await subject.projects.list(tenant, query('created_at'))).total).toBe(0);
  });

  it('writes given the project as read only while it still is: changed, and nothing written, once another write came between', async () => {
    const created = project('Checkout', 0);
    await subject.projects.create(tenant, created);
    const at = new Date(start + 3_600_000).toISOString();
    const renamed = await subject.projects.update(tenant, created.id, { name: 'Shop' }, at, created);
    expect(renamed).toEqual({ ...created, name: 'Shop', updated_at: at });
    // `created` is stale now: neither a second update nor a delete given it goes through.
    expect(await subject.projects.update(tenant, created.id, { description: 'Lost' }, at, created)).toBe('changed');
    expect(await subject.projects.delete(tenant, created.id, created)).toBe('changed');
    expect(await subject.projects.get(tenant, created.id, { consistent: true })).toEqual(renamed);
    expect(await subject.projects.delete(tenant, created.id, renamed as Project)).toBe('deleted');
    expect(await subject.projects.update(tenant, created.id, { name: 'Gone' }, at, created)).toBeUndefined();
    expect(await subject.projects.delete(tenant, created.id, created)).toBe('not_found');
  });

  it('answers busy, and deletes nothing, while work runs on the project', async () => {
    const created = project('Checkout', 0);
    await subject.projects.create(tenant, created);
    await subject.startWork(tenant, created.id);
    expect(await subject.projects.delete(tenant, created.id)).toBe('busy');
    // Busy, not changed, when the project is still as read: the write refused it for its work.
    expect(await subject.projects.delete(tenant, created.id, created)).toBe('busy');
    expect(await subject.projects.get(tenant, created.id)).toEqual(created);
  });
});
