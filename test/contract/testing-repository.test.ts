import { dynamoTestRepository } from '../../functions/adapters/dynamodb/testing-repository';
import { newId } from '../../functions/core/ids';
import type { Tenant } from '../../functions/core/tenancy';
import type { TestRepository, TestRun, TestSuite } from '../../functions/core/testing/test-records';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { inMemoryTestRepository } from '../unit/fakes/testing-repository';
import { runRecord, suiteRecord } from '../unit/fakes/test-fixtures';
import { sortedEvents, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A TestRepository, the way a project comes to exist beside it, and the events it has written. */
interface Subject {
  tests: TestRepository;
  addProject(tenant: Tenant, projectId: string): Promise<void>;
  events(tenant: Tenant): Promise<PendingEvent[]>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const tests = inMemoryTestRepository();
      return {
        tests,
        async addProject(tenant, id) {
          tests.addProject(tenant, id);
        },
        async events(tenant) {
          return sortedEvents(tests.eventsOf(tenant));
        },
      };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        tests: dynamoTestRepository(table),
        addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start).toISOString()),
        events: (tenant) => storedEvents(table, tenant),
      };
    },
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minute: number): string => new Date(start + minute * 60_000).toISOString();
const projectId = newId('project', start - 86_400_000);
const unknownProjectId = newId('project', start - 43_200_000);

const suite = (minute: number, overrides: Partial<TestSuite> = {}): TestSuite =>
  suiteRecord({ project_id: projectId, ...overrides }, start + minute * 60_000);
const run = (minute: number, overrides: Partial<TestRun> = {}): TestRun =>
  runRecord({ project_id: projectId, ...overrides }, start + minute * 60_000);

const completed: PendingEvent = { type: 'test.run.completed', data: { passed: 3, failed: 0 } };

describe.each(implementations)('TestRepository: %s', (_name, make) => {
  let subject: Subject;
  let tests: TestRepository;
  beforeEach(async () => {
    subject = await make();
    tests = subject.tests;
    await subject.addProject(tenant, projectId);
  });

  it('creates a suite only for a project that exists, gives it back per account and mode, and refuses a second create', async () => {
    const created = suite(0);
    expect(await tests.createSuite(tenant, created)).toBe(true);
    expect(await tests.getSuite(tenant, created.id)).toEqual(created);
    expect(await tests.getSuite(otherMode, created.id)).toBeUndefined();
    const orphan = suite(1, { project_id: unknownProjectId });
    expect(await tests.createSuite(tenant, orphan)).toBe(false);
    expect(await tests.getSuite(tenant, orphan.id)).toBeUndefined();
    await expect(tests.createSuite(tenant, { ...created, instructions: 'again' })).rejects.toThrow();
    expect(await tests.getSuite(tenant, created.id)).toEqual(created);
  });

  it("creates a run only for a project that exists; a suite's run becomes the suite's latest, its revision unchanged", async () => {
    const ofRepository = run(0);
    expect(await tests.createRun(tenant, ofRepository)).toBe(true);
    expect(await tests.getRun(tenant, ofRepository.id)).toEqual(ofRepository);
    expect(await tests.getRun(otherMode, ofRepository.id)).toBeUndefined();

    const generated = suite(1, { status: 'completed' });
    await tests.createSuite(tenant, generated);
    const ofSuite = run(2, { suite_id: generated.id });
    expect(await tests.createRun(tenant, ofSuite)).toBe(true);
    expect(await tests.getSuite(tenant, generated.id)).toEqual({ ...generated, latest_run_id: ofSuite.id });

    const orphan = run(3, { project_id: unknownProjectId });
    expect(await tests.createRun(tenant, orphan)).toBe(false);
    expect(await tests.getRun(tenant, orphan.id)).toBeUndefined();
    await expect(tests.createRun(tenant, { ...ofRepository, timeout_seconds: 60 })).rejects.toThrow();
    expect(await tests.getRun(tenant, ofRepository.id)).toEqual(ofRepository);
  });

  it("gives the newest suites and runs, newest first, and only suites and runs (not the collections' counters)", async () => {
    const [older, newer] = [suite(0), suite(1)];
    for (const created of [older, newer]) expect(await tests.createSuite(tenant, created)).toBe(true);
    const only = run(2);
    expect(await tests.createRun(tenant, only)).toBe(true);
    expect(await tests.recentSuites(tenant, 5)).toEqual([newer, older]);
    expect(await tests.recentSuites(tenant, 1)).toEqual([newer]);
    expect(await tests.recentRuns(tenant, 5)).toEqual([only]);
    expect(await tests.recentRuns(otherMode, 5)).toEqual([]);
  });

  it('refuses, storing nothing, a run of a suite that does not exist', async () => {
    const ofMissingSuite = run(0, { suite_id: newId('testSuite', start) });
    await expect(tests.createRun(tenant, ofMissingSuite)).rejects.toThrow();
    expect(await tests.getRun(tenant, ofMissingSuite.id)).toBeUndefined();
  });

  it('saves a suite only over the revision it was read at, with its events; a refused save writes none', async () => {
    const created = suite(0);
    await tests.createSuite(tenant, created);
    const running: TestSuite = { ...created, status: 'running', started_at: at(1), updated_at: at(1), revision: 2 };
    const generated: PendingEvent = { type: 'test.generation.completed', data: { id: created.id, status: 'failed' } };
    expect(await tests.saveSuite(tenant, created, running, [])).toBe(true);
    expect(await tests.saveSuite(tenant, created, { ...created, status: 'failed', revision: 2 }, [generated])).toBe(false);
    expect(await tests.getSuite(tenant, created.id)).toEqual(running);
    expect(await tests.saveSuite(tenant, suite(5), { ...suite(5), revision: 2 }, [generated])).toBe(false);
    expect(await tests.getSuite(tenant, suite(5).id)).toBeUndefined();
    expect(await subject.events(tenant)).toEqual([]);
    const failed: TestSuite = { ...running, status: 'failed', completed_at: at(2), updated_at: at(2), revision: 3 };
    expect(await tests.saveSuite(tenant, running, failed, [generated])).toBe(true);
    expect(await subject.events(tenant)).toEqual([generated]);
    expect(await subject.events(otherMode)).toEqual([]);
  });

  it('saves a run only over the revision it was read at, with its events; a refused save writes none', async () => {
    const created = run(0);
    await tests.createRun(tenant, created);
    const done: TestRun = { ...created, status: 'completed', completed_at: at(3), updated_at: at(3), revision: 2 };
    expect(await tests.saveRun(tenant, created, done, [completed])).toBe(true);
    expect(
      await tests.saveRun(tenant, created, { ...created, status: 'failed', revision: 2 }, [{ type: 'test.run.completed', data: {} }]),
    ).toBe(false);
    expect(await tests.getRun(tenant, created.id)).toEqual(done);
    expect(await subject.events(tenant)).toEqual([completed]);
    expect(await subject.events(otherMode)).toEqual([]);
  });
});
