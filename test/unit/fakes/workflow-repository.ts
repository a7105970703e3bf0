import type { ListQuery, Page } from '../../../functions/core/pagination';
import { fakeNextCursor } from './created-order';
import type { Tenant } from '../../../functions/core/tenancy';
import type { LogEntry, PendingEvent, Workflow, WorkflowRepository } from '../../../functions/core/workflows/workflow';

const keyOf = (tenant: Tenant, id: string) => `${tenant.accountId}|${tenant.mode}|${id}`;

export interface StoredEvent extends PendingEvent {
  workflowId: string;
}

/**
 * In-memory WorkflowRepository with the DynamoDB adapter's rules: `create` answers false for a
 * project it does not know (add them with `addProject`), `save` only replaces a record still at
 * `previous.version`. Returns copies, so only the port changes what is stored.
 *
 * `beforeSave` runs at the start of every save, before the version check: a test uses it to
 * change the stored record as a concurrent writer would (`interfere`).
 */
export const inMemoryWorkflowRepository = () => {
  const projects = new Set<string>();
  const workflows = new Map<string, Workflow>();
  const logs = new Map<string, LogEntry[]>();
  const events: StoredEvent[] = [];
  const calls = { create: 0, save: 0, savesRejected: 0 };
  let beforeSave: ((tenant: Tenant, id: string) => void) | undefined;

  const repository: WorkflowRepository = {
    async create(tenant, workflow, event) {
      calls.create += 1;
      if (!projects.has(keyOf(tenant, workflow.project_id))) return false;
      if (workflows.has(keyOf(tenant, workflow.id))) throw new Error(`workflow ${workflow.id} exists`);
      workflows.set(keyOf(tenant, workflow.id), structuredClone(workflow));
      events.push({ ...structuredClone(event), workflowId: workflow.id });
      return true;
    },
    async get(tenant, id) {
      const workflow = workflows.get(keyOf(tenant, id));
      return workflow && structuredClone(workflow);
    },
    async list(tenant, query: ListQuery<'created_at'>, filters): Promise<Page<Workflow>> {
      const prefix = keyOf(tenant, '');
      const direction = query.order === 'asc' ? 1 : -1;
      const matching = [...workflows.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, workflow]) => workflow)
        .filter((w) => filters.project_id === undefined || w.project_id === filters.project_id)
        .filter((w) => filters.status === undefined || w.status === filters.status)
        .sort((a, b) => direction * (a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)));
      const start = (query.page - 1) * query.perPage;
      return {
        items: matching.slice(start, start + query.perPage).map((w) => structuredClone(w)),
        total: matching.length,
        nextCursor: fakeNextCursor(query, matching.length),
      };
    },
    async save(tenant, previous, next, pending, written = []) {
      calls.save += 1;
      beforeSave?.(tenant, previous.id);
      const stored = workflows.get(keyOf(tenant, previous.id));
      if (!stored || stored.version !== previous.version) {
        calls.savesRejected += 1;
        return false;
      }
      workflows.set(keyOf(tenant, previous.id), structuredClone(next));
      events.push(...pending.map((event) => ({ ...structuredClone(event), workflowId: previous.id })));
      const key = keyOf(tenant, previous.id);
      logs.set(key, [...(logs.get(key) ?? []), ...written.map((entry) => ({ ...entry }))]);
      return true;
    },
    async appendLog(tenant, workflowId, entry) {
      const key = keyOf(tenant, workflowId);
      if (workflows.get(key)?.status === 'cancelled') return false;
      logs.set(key, [...(logs.get(key) ?? []), { ...entry }]);
      return true;
    },
    async listLogs(tenant, workflowId, query: ListQuery<'timestamp'>, filters): Promise<Page<LogEntry>> {
      const direction = query.order === 'asc' ? 1 : -1;
      const matching = (logs.get(keyOf(tenant, workflowId)) ?? [])
        .filter((entry) => filters.stage === undefined || entry.stage === filters.stage)
        .filter((entry) => filters.level === undefined || entry.level === filters.level)
        .map((entry, index) => ({ entry, index }))
        .sort((a, b) => direction * (a.entry.timestamp.localeCompare(b.entry.timestamp) || a.index - b.index))
        .map(({ entry }) => entry);
      const start = (query.page - 1) * query.perPage;
      return {
        items: matching.slice(start, start + query.perPage).map((e) => ({ ...e })),
        total: matching.length,
        nextCursor: fakeNextCursor(query, matching.length),
      };
    },
  };

  return {
    ...repository,
    calls,
    events,
    addProject(tenant: Tenant, projectId: string) {
      projects.add(keyOf(tenant, projectId));
    },
    /** Stores a record as is (no event), e.g. one in a given state. */
    put(tenant: Tenant, workflow: Workflow) {
      workflows.set(keyOf(tenant, workflow.id), structuredClone(workflow));
    },
    stored(tenant: Tenant, id: string): Workflow | undefined {
      const workflow = workflows.get(keyOf(tenant, id));
      return workflow && structuredClone(workflow);
    },
    logsOf(tenant: Tenant, id: string): LogEntry[] {
      return (logs.get(keyOf(tenant, id)) ?? []).map((e) => ({ ...e }));
    },
    /** Runs `change` on the stored record before each save's version check (until cleared with undefined). */
    interfere(change: ((workflow: Workflow) => Workflow) | undefined) {
      beforeSave = change
        ? (tenant, id) => {
            const stored = workflows.get(keyOf(tenant, id));
            if (stored) workflows.set(keyOf(tenant, id), change(structuredClone(stored)));
          }
        : undefined;
    },
  };
};

export type InMemoryWorkflowRepository = ReturnType<typeof inMemoryWorkflowRepository>;
