import type { Deployment, DeploymentRepository, Environment, SaveEffects } from '../../../functions/core/deployments/deployment';
import type { ListQuery, Page } from '../../../functions/core/pagination';
import type { Tenant } from '../../../functions/core/tenancy';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { byId, createdOrderPage } from './created-order';

const tenantKey = (tenant: Tenant) => `${tenant.accountId}|${tenant.mode}`;
const keyOf = (tenant: Tenant, id: string) => `${tenantKey(tenant)}|${id}`;
const placeOf = (tenant: Tenant, projectId: string, environment: Environment) =>
  `${tenant.accountId}|${tenant.mode}|${projectId}|${environment}`;

export interface StoredDeploymentEvent extends PendingEvent {
  deploymentId: string;
}

/** What a save asked for besides the record, kept for assertions. */
export interface SaveCall {
  id: string;
  effects: SaveEffects;
  accepted: boolean;
}

/**
 * In-memory DeploymentRepository with the DynamoDB adapter's rules:
 *
 * - `create` counts the deployment as active on its project and takes the project/environment's
 *   lock; an unknown project (see `addProject`) answers `project_missing`, a held lock `busy`, and
 *   neither writes anything.
 * - `save` replaces the record only while it is still at `previous.revision` (and the `alsoSave`
 *   record at its own), and applies every effect in the same step: `releaseLock` (the lock must be
 *   held by this deployment, or the whole save throws as the transaction would), `setCurrent`,
 *   `finished` (the project's active count goes down; an unknown project throws), `alsoSave`.
 * - `list` pages by id (creation order) within the query's created range, as the adapter's keys do.
 * - `previousCompleted` is the latest `completed` deployment of the project/environment whose id
 *   sorts before the given one (ids sort by creation time).
 * - `beginRollback` checks, in this order: the lock is free (`busy`), the deployment is current
 *   (`not_current`), the record is unchanged (`changed`); then takes the lock and stores `next`.
 *
 * Returns copies, so only the port changes what is stored. `interfere` runs before each save's
 * checks, as a concurrent writer would.
 */
export const inMemoryDeploymentRepository = () => {
  const projects = new Set<string>();
  const deployments = new Map<string, Deployment>();
  const locks = new Map<string, string>();
  const current = new Map<string, string>();
  const active = new Map<string, number>();
  const events: StoredDeploymentEvent[] = [];
  const tenantEvents = new Map<string, PendingEvent[]>();
  const saves: SaveCall[] = [];
  /** Workflows no longer running: their auto_deploy is refused. Any other counts as running. */
  const stoppedWorkflows = new Set<string>();
  const calls = { create: 0, save: 0, savesRejected: 0, beginRollback: 0, previousCompleted: 0 };
  let beforeSave: ((tenant: Tenant, id: string) => void) | undefined;

  const copy = <T>(value: T): T => structuredClone(value);

  const repository: DeploymentRepository = {
    async create(tenant, deployment, options = {}) {
      calls.create += 1;
      const projectKey = keyOf(tenant, deployment.project_id);
      if (!projects.has(projectKey)) return 'project_missing';
      const place = placeOf(tenant, deployment.project_id, deployment.environment);
      if (locks.has(place)) return 'busy';
      if (options.whileWorkflowRuns !== undefined && stoppedWorkflows.has(keyOf(tenant, options.whileWorkflowRuns)))
        return 'workflow_stopped';
      if (deployments.has(keyOf(tenant, deployment.id))) throw new Error(`deployment ${deployment.id} exists`);
      deployments.set(keyOf(tenant, deployment.id), copy(deployment));
      locks.set(place, deployment.id);
      active.set(projectKey, (active.get(projectKey) ?? 0) + 1);
      return 'created';
    },

    async get(tenant, id) {
      const deployment = deployments.get(keyOf(tenant, id));
      return deployment && copy(deployment);
    },

    async list(tenant, query: ListQuery<'created_at'>, filters): Promise<Page<Deployment>> {
      const prefix = keyOf(tenant, '');
      const matching = [...deployments.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, deployment]) => deployment)
        .filter((d) => filters.project_id === undefined || d.project_id === filters.project_id)
        .filter((d) => filters.environment === undefined || d.environment === filters.environment)
        .filter((d) => filters.status === undefined || d.status === filters.status);
      return createdOrderPage(matching, query, copy);
    },

    async save(tenant, previous, next, pending, effects = {}) {
      calls.save += 1;
      beforeSave?.(tenant, previous.id);
      const stored = deployments.get(keyOf(tenant, previous.id));
      const alsoStored = effects.alsoSave && deployments.get(keyOf(tenant, effects.alsoSave.previous.id));
      const unchanged =
        stored?.revision === previous.revision && (!effects.alsoSave || alsoStored?.revision === effects.alsoSave.previous.revision);
      if (!unchanged) {
        calls.savesRejected += 1;
        saves.push({ id: previous.id, effects: copy(effects), accepted: false });
        return false;
      }
      const place = placeOf(tenant, next.project_id, next.environment);
      const projectKey = keyOf(tenant, next.project_id);
      // A failed condition on anything but the records is not a "changed meanwhile": the adapter throws.
      if (effects.releaseLock && locks.get(place) !== next.id) {
        throw new Error(`transaction cancelled: the lock of ${place} is held by ${locks.get(place) ?? 'nobody'}, not ${next.id}`);
      }
      if (effects.finished && !projects.has(projectKey)) throw new Error(`transaction cancelled: project ${next.project_id} is missing`);

      deployments.set(keyOf(tenant, previous.id), copy(next));
      if (effects.alsoSave) deployments.set(keyOf(tenant, effects.alsoSave.previous.id), copy(effects.alsoSave.next));
      if (effects.releaseLock) locks.delete(place);
      if (effects.setCurrent) current.set(place, effects.setCurrent);
      if (effects.finished) active.set(projectKey, (active.get(projectKey) ?? 0) - 1);
      events.push(...pending.map((event) => ({ ...copy(event), deploymentId: previous.id })));
      tenantEvents.set(tenantKey(tenant), [...(tenantEvents.get(tenantKey(tenant)) ?? []), ...copy(pending)]);
      saves.push({ id: previous.id, effects: copy(effects), accepted: true });
      return true;
    },

    async currentId(tenant, projectId, environment) {
      return current.get(placeOf(tenant, projectId, environment));
    },

    async previousCompleted(tenant, projectId, environment, beforeId) {
      calls.previousCompleted += 1;
      const prefix = keyOf(tenant, '');
      const earlier = [...deployments.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([, deployment]) => deployment)
        .filter((d) => d.project_id === projectId && d.environment === environment && d.id < beforeId && d.status === 'completed')
        .sort((a, b) => byId(b, a));
      return earlier[0] && copy(earlier[0]);
    },

    async beginRollback(tenant, previous, next) {
      calls.beginRollback += 1;
      const place = placeOf(tenant, next.project_id, next.environment);
      if (locks.has(place)) return 'busy';
      if (current.get(place) !== next.id) return 'not_current';
      if (deployments.get(keyOf(tenant, previous.id))?.revision !== previous.revision) return 'changed';
      const projectKey = keyOf(tenant, next.project_id);
      if (!projects.has(projectKey)) return 'changed';
      locks.set(place, next.id);
      deployments.set(keyOf(tenant, next.id), copy(next));
      active.set(projectKey, (active.get(projectKey) ?? 0) + 1);
      return 'started';
    },
  };

  return {
    ...repository,
    calls,
    /** Every event saved, of any tenant, with the deployment it was saved with. */
    events,
    /** The events saved for one account and mode, as the outbox holds them. */
    eventsOf(tenant: Tenant): PendingEvent[] {
      return copy(tenantEvents.get(tenantKey(tenant)) ?? []);
    },
    saves,
    addProject(tenant: Tenant, projectId: string) {
      projects.add(keyOf(tenant, projectId));
    },
    stopWorkflow(tenant: Tenant, workflowId: string) {
      stoppedWorkflows.add(keyOf(tenant, workflowId));
    },
    /** Stores a record as is: no lock, no event, no activity. */
    put(tenant: Tenant, deployment: Deployment) {
      deployments.set(keyOf(tenant, deployment.id), copy(deployment));
    },
    stored(tenant: Tenant, id: string): Deployment | undefined {
      const deployment = deployments.get(keyOf(tenant, id));
      return deployment && copy(deployment);
    },
    all(): Deployment[] {
      return [...deployments.values()].map(copy);
    },
    lockHolder(tenant: Tenant, projectId: string, environment: Environment): string | undefined {
      return locks.get(placeOf(tenant, projectId, environment));
    },
    /** Takes the lock as another deployment would. */
    holdLock(tenant: Tenant, projectId: string, environment: Environment, deploymentId: string) {
      locks.set(placeOf(tenant, projectId, environment), deploymentId);
    },
    current(tenant: Tenant, projectId: string, environment: Environment): string | undefined {
      return current.get(placeOf(tenant, projectId, environment));
    },
    setCurrent(tenant: Tenant, projectId: string, environment: Environment, deploymentId: string) {
      current.set(placeOf(tenant, projectId, environment), deploymentId);
    },
    activeCount(tenant: Tenant, projectId: string): number {
      return active.get(keyOf(tenant, projectId)) ?? 0;
    },
    setActiveCount(tenant: Tenant, projectId: string, count: number) {
      active.set(keyOf(tenant, projectId), count);
    },
    /** Runs `change` on the stored record before each save's checks (until cleared with undefined). */
    interfere(change: ((deployment: Deployment) => Deployment) | undefined) {
      beforeSave = change
        ? (tenant, id) => {
            const stored = deployments.get(keyOf(tenant, id));
            if (stored) deployments.set(keyOf(tenant, id), change(copy(stored)));
          }
        : undefined;
    },
  };
};

export type InMemoryDeploymentRepository = ReturnType<typeof inMemoryDeploymentRepository>;
