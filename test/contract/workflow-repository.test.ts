import {
  dynamoWorkflowList,
  dynamoWorkflowLogList,
  dynamoWorkflowReader,
  dynamoWorkflowRecords,
  dynamoWorkflowRepository,
} from '../../functions/adapters/dynamodb/workflow-repository';
import { newId } from '../../functions/core/ids';
import type { ListQuery } from '../../functions/core/pagination';
import type { Tenant } from '../../functions/core/tenancy';
import { newWorkflow, type Workflow, type WorkflowRepository } from '../../functions/core/workflows/workflow';
import { inMemoryWorkflowRepository } from '../unit/fakes/workflow-repository';
import { byCreation, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A WorkflowRepository and the way a project comes to exist beside it. */
interface Subject {
  workflows: WorkflowRepository;
  addProject(tenant: Tenant, projectId: string): Promise<void>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const workflows = inMemoryWorkflowRepository();
      return {
        workflows,
        async addProject(tenant, id) {
          workflows.addProject(tenant, id);
        },
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        workflows: dynamoWorkflowRepository(table),
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start).toISOString()),
      };
    },
  ],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        workflows: {
          ...dynamoWorkflowRecords(table),
          ...dynamoWorkflowReader(table),
          ...dynamoWorkflowList(table),
          ...dynamoWorkflowLogList(table),
        },
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start).toISOString()),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const projectId = newId('project', start);

const workflow = (minute: number, project = projectId): Workflow =>
  newWorkflow({
    id: newId('workflow', start + minute * 60_000),
    project_id: project,
    name: `Change ${minute}`,
    prompt: 'Make it better',
    config: { branch: null, ai_provider: 'local', max_iterations: 2, auto_deploy: false, review: true },
    now: new Date(start + minute * 60_000).toISOString(),
  });

const created = { type: 'workflow.created' as const, data: {} };

describe.each(implementations)('WorkflowRepository: %s', (_name, make) => {
  let subject: Subject;
  beforeEach(async () => {
    subject = await make();
    await subject.addProject(tenant, projectId);
  });

  it('creates a workflow only for a project that exists, and gives back what it stored', async () => {
    const first = workflow(0);
    expect(await subject.workflows.create(tenant, first, created)).toBe(true);
    expect(await subject.workflows.get(tenant, first.id)).toEqual(first);
    expect(await subject.workflows.create(tenant, workflow(1, newId('project', start + 1)), created)).toBe(false);
    expect(await subject.workflows.get({ ...tenant, mode: 'live' }, first.id)).toBeUndefined();
  });

  it('saves a change only over the version it was made from', async () => {
    const first = workflow(0);
    await subject.workflows.create(tenant, first, created);
    const running: Workflow = { ...first, status: 'running', version: first.version + 1 };
    expect(await subject.workflows.save(tenant, first, running, [])).toBe(true);
    expect(await subject.workflows.save(tenant, first, { ...first, status: 'cancelled', version: first.version + 1 }, [])).toBe(false);
    expect((await subject.workflows.get(tenant, first.id))?.status).toBe('running');
  });

  it('writes the log lines a change carries with it, and appends nothing more once the workflow is cancelled', async () => {
    const first = workflow(0);
    await subject.workflows.create(tenant, first, created);
    const at = new Date(start + 1000).toISOString();
    const line = (message: string) => ({ timestamp: at, stage: 'build' as const, level: 'info' as const, message });
    expect(await subject.workflows.appendLog(tenant, first.id, line('working'))).toBe(true);
    const cancelled: Workflow = { ...first, status: 'cancelled', version: first.version + 1 };
    expect(await subject.workflows.save(tenant, first, cancelled, [], [line('build cancelled')])).toBe(true);
    expect(await subject.workflows.appendLog(tenant, first.id, line('still working'))).toBe(false);
    const logs = await subject.workflows.listLogs(tenant, first.id, { page: 1, perPage: 50, sort: 'timestamp', order: 'asc' }, {});
    expect(logs.items.map((entry) => entry.message)).toEqual(['working', 'build cancelled']);
  });

  it('lists by creation, filtered by project and status, with the total', async () => {
    const [a, b, c] = [workflow(0), workflow(1), workflow(2)];
    for (const w of [a, b, c]) await subject.workflows.create(tenant, w!, created);
    await subject.workflows.save(tenant, b!, { ...b!, status: 'running', version: b!.version + 1 }, []);
    const all = await subject.workflows.list(tenant, byCreation('desc'), {});
    expect({ ids: all.items.map((w) => w.id), total: all.total }).toEqual({ ids: [c!.id, b!.id, a!.id], total: 3 });
    const queued = await subject.workflows.list(tenant, byCreation(), { project_id: projectId, status: 'queued' });
    expect({ ids: queued.items.map((w) => w.id), total: queued.total }).toEqual({ ids: [a!.id, c!.id], total: 2 });
    expect((await subject.workflows.list(tenant, byCreation(), { project_id: newId('project', start + 5) })).total).toBe(0);
    const firstPage = await subject.workflows.list(tenant, byCreation('asc', { perPage: 2 }), {});
    expect({ ids: firstPage.items.map((w) => w.id), total: firstPage.total }).toEqual({ ids: [a!.id, b!.id], total: 3 });
  });

  it('keeps the log in time order, entries of the same instant in the order written, filtered by stage and level', async () => {
    const first = workflow(0);
    await subject.workflows.create(tenant, first, created);
    const at = (second: number) => new Date(start + second * 1000).toISOString();
    const entries = [
      { timestamp: at(1), stage: 'intake' as const, level: 'info' as const, message: 'one' },
      { timestamp: at(2), stage: 'build' as const, level: 'warn' as const, message: 'two' },
      { timestamp: at(2), stage: 'build' as const, level: 'info' as const, message: 'three' },
      { timestamp: at(3), stage: null, level: 'error' as const, message: 'four' },
    ];
    for (const entry of entries) await subject.workflows.appendLog(tenant, first.id, entry);
    const query = (order: 'asc' | 'desc'): ListQuery<'timestamp'> => ({ page: 1, perPage: 50, sort: 'timestamp', order });
    const all = await subject.workflows.listLogs(tenant, first.id, query('asc'), {});
    expect({ messages: all.items.map((e) => e.message), total: all.total }).toEqual({
      messages: ['one', 'two', 'three', 'four'],
      total: 4,
    });
    expect((await subject.workflows.listLogs(tenant, first.id, query('asc'), { stage: 'build' })).items.map((e) => e.message)).toEqual([
      'two',
      'three',
    ]);
    expect((await subject.workflows.listLogs(tenant, first.id, query('asc'), { level: 'info' })).items).toEqual([entries[0], entries[2]]);
  });
});
