import type { ListQuery, Page } from '../../../functions/core/pagination';
import { fakeNextCursor } from './created-order';
import type { Tenant } from '../../../functions/core/tenancy';
import type { TestRepository, TestRun, TestSuite } from '../../../functions/core/testing/test-records';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';

const tenantKey = (tenant: Tenant) => `${tenant.accountId}|${tenant.mode}`;
const keyOf = (tenant: Tenant, id: string) => `${tenantKey(tenant)}|${id}`;

export interface StoredTestEvent extends PendingEvent {
  /** The suite or run it was saved with. */
  recordId: string;
}

/**
 * In-memory TestRepository with the DynamoDB adapter's rules: `createSuite` / `createRun` answer
 * false for a project it does not know (add them with `addProject`); a run of a suite becomes the
 * suite's latest run (without a revision change, as the adapter's Update does); `saveSuite` /
 * `saveRun` only replace a record still at `previous.revision`, and record their events.
 * Returns copies, so only the port changes what is stored.
 *
 * `interfere` changes the stored record before the next save's revision check, as a concurrent
 * writer would.
 */
export const inMemoryTestRepository = () => {
  const projects = new Set<string>();
  const suites = new Map<string, TestSuite>();
  const runs = new Map<string, TestRun>();
  const events: StoredTestEvent[] = [];
  const tenantEvents = new Map<string, PendingEvent[]>();
  const calls = { createSuite: 0, createRun: 0, saveSuite: 0, saveRun: 0, savesRejected: 0 };
  let beforeSave: ((tenant: Tenant, id: string) => void) | undefined;
  const recordEvents = (tenant: Tenant, recordId: string, pending: PendingEvent[]) => {
    events.push(...pending.map((event) => ({ ...structuredClone(event), recordId })));
    const ofTenant = tenantEvents.get(tenantKey(tenant)) ?? [];
    tenantEvents.set(tenantKey(tenant), [...ofTenant, ...structuredClone(pending)]);
  };

  const repository: TestRepository = {
    async createSuite(tenant, suite) {
      calls.createSuite += 1;
      if (!projects.has(keyOf(tenant, suite.project_id))) return false;
      if (suites.has(keyOf(tenant, suite.id))) throw new Error(`suite ${suite.id} exists`);
      suites.set(keyOf(tenant, suite.id), structuredClone(suite));
      return true;
    },
    async createRun(tenant, run) {
      calls.createRun += 1;
      if (!projects.has(keyOf(tenant, run.project_id))) return false;
      if (runs.has(keyOf(tenant, run.id))) throw new Error(`run ${run.id} exists`);
      if (run.suite_id) {
        const suite = suites.get(keyOf(tenant, run.suite_id));
        if (!suite) throw new Error(`suite ${run.suite_id} does not exist (the adapter's transaction would be cancelled)`);
        suite.latest_run_id = run.id;
      }
      runs.set(keyOf(tenant, run.id), structuredClone(run));
      return true;
    },
    async list(tenant, query: ListQuery<'created_at'>, filters): Promise<Page<TestSuite | TestRun>> {
      const prefix = keyOf(tenant, '');
      const direction = query.order === 'asc' ? 1 : -1;
      const ulidOf = (id: string) => id.slice(id.indexOf('_') + 1);
      const matching = [...suites.entries(), ...runs.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, record]) => record)
        .filter((r) => filters.project_id === undefined || r.project_id === filters.project_id)
        .filter((r) => filters.object === undefined || r.object === filters.object)
        .filter((r) => filters.status === undefined || r.status === filters.status)
        .sort((a, b) => direction * (ulidOf(a.id).localeCompare(ulidOf(b.id)) || a.id.localeCompare(b.id)));
      const start = (query.page - 1) * query.perPage;
      return {
        items: matching.slice(start, start + query.perPage).map((r) => structuredClone(r)),
        total: matching.length,
        nextCursor: fakeNextCursor(query, matching.length),
      };
    },
    async getSuite(tenant, id) {
      const suite = suites.get(keyOf(tenant, id));
      return suite && structuredClone(suite);
    },
    async getRun(tenant, id) {
      const run = runs.get(keyOf(tenant, id));
      return run && structuredClone(run);
    },
    async recentSuites(tenant, limit) {
      const prefix = keyOf(tenant, '');
      return [...suites.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, suite]) => structuredClone(suite))
        .sort((a, b) => b.id.localeCompare(a.id))
        .slice(0, limit);
    },
    async recentRuns(tenant, limit) {
      const prefix = keyOf(tenant, '');
      return [...runs.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, run]) => structuredClone(run))
        .sort((a, b) => b.id.localeCompare(a.id))
        .slice(0, limit);
    },
    async saveSuite(tenant, previous, next, pending) {
      calls.saveSuite += 1;
      beforeSave?.(tenant, previous.id);
      const stored = suites.get(keyOf(tenant, previous.id));
      if (!stored || stored.revision !== previous.revision) {
        calls.savesRejected += 1;
        return false;
      }
      suites.set(keyOf(tenant, previous.id), structuredClone(next));
      recordEvents(tenant, previous.id, pending);
      return true;
    },
    async saveRun(tenant, previous, next, pending) {
      calls.saveRun += 1;
      beforeSave?.(tenant, previous.id);
      const stored = runs.get(keyOf(tenant, previous.id));
      if (!stored || stored.revision !== previous.revision) {
        calls.savesRejected += 1;
        return false;
      }
      runs.set(keyOf(tenant, previous.id), structuredClone(next));
      recordEvents(tenant, previous.id, pending);
      return true;
    },
  };

  return {
    ...repository,
    calls,
    /** Every event saved, of any tenant, with the suite or run it was saved with. */
    events,
    /** The events saved for one account and mode, as the outbox holds them. */
    eventsOf(tenant: Tenant): PendingEvent[] {
      return structuredClone(tenantEvents.get(tenantKey(tenant)) ?? []);
    },
    addProject(tenant: Tenant, projectId: string) {
      projects.add(keyOf(tenant, projectId));
    },
    /** Stores a record as is, e.g. one in a given state. */
    putSuite(tenant: Tenant, suite: TestSuite) {
      suites.set(keyOf(tenant, suite.id), structuredClone(suite));
    },
    putRun(tenant: Tenant, run: TestRun) {
      runs.set(keyOf(tenant, run.id), structuredClone(run));
    },
    storedSuite(tenant: Tenant, id: string): TestSuite | undefined {
      const suite = suites.get(keyOf(tenant, id));
      return suite && structuredClone(suite);
    },
    storedRun(tenant: Tenant, id: string): TestRun | undefined {
      const run = runs.get(keyOf(tenant, id));
      return run && structuredClone(run);
    },
    /** Runs `change` on the stored suite or run before each save's revision check (until cleared with undefined). */
    interfere(change: ((record: TestSuite | TestRun) => TestSuite | TestRun) | undefined) {
      beforeSave = change
        ? (tenant, id) => {
            const key = keyOf(tenant, id);
            const suite = suites.get(key);
            if (suite) suites.set(key, change(structuredClone(suite)) as TestSuite);
            const run = runs.get(key);
            if (run) runs.set(key, change(structuredClone(run)) as TestRun);
          }
        : undefined;
    },
  };
};

export type InMemoryTestRepository = ReturnType<typeof inMemoryTestRepository>;
