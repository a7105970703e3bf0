import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deployment, DeploymentRecords, DeploymentRepository, Environment } from '../../core/deployments/deployment';
import type { ListQuery } from '../../core/pagination';
import type { Tenant } from '../../core/tenancy';
import type { PendingEvent } from '../../core/workflows/workflow';
import { countMoves, deploymentsInProgressCountKey, isDeploymentInProgress, moveOf } from './attention-counts';
import type { TableRef } from './client';
import { pendingEventItems } from './event-repository';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdRangeOn,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
  withEqualityFilters,
} from './list-page';
import { activeDeploymentsAttribute, entityTypes, ownedRecord } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectActivityUpdate } from './project-guards';
import * as keys from './table-keys';
import { conditionFailedAt, revisionPut, type TransactItem, withConflictRetry } from './transactions';
import { workflowRunningCheck } from './workflow-guards';

/** The narrowest range for the filters: project + environment, project, or the whole collection. */
const rangeFor = (tenant: Tenant, query: ListQuery, projectId: string | undefined, environment: Environment | undefined): RangeSpec => {
  if (projectId && environment)
    return createdRangeOn(
      keys.deploymentsOfEnvironment(tenant, projectId, environment),
      'gsi2',
      keys.deploymentSortKeyPrefix,
      'deployment',
      query,
    );
  if (projectId)
    return createdRangeOn(keys.deploymentsOfProject(tenant, projectId), 'gsi1', keys.deploymentSortKeyPrefix, 'deployment', query);
  return createdRangeOn(keys.deployments(tenant), null, keys.deploymentSortKeyPrefix, 'deployment', query);
};

/**
 * A deployment's record, one at a time, and the reads a rollback makes: what creating, rolling back
 * and the deployment steps use. Apart from the list so that those functions carry no list paging.
 */
export const dynamoDeploymentRecords = (table: TableRef, now: () => number = Date.now): DeploymentRecords => {
  const { client, tableName } = table;
  const itemOf = (tenant: Tenant, deployment: Deployment) => ({
    ...keys.deployment(tenant, deployment.id),
    ...keys.deploymentIndexes(tenant, deployment.project_id, deployment.environment, deployment.id),
    entity: entityTypes.deployment,
    account_id: tenant.accountId,
    mode: tenant.mode,
    ...deployment,
  });
  const conditionalPut = (tenant: Tenant, previous: Deployment, next: Deployment): TransactItem =>
    revisionPut(tableName, itemOf(tenant, next), previous.revision);
  const projectActivity = (tenant: Tenant, projectId: string, by: 1 | -1): TransactItem =>
    projectActivityUpdate(tableName, tenant, projectId, activeDeploymentsAttribute, by);
  const lockPut = (tenant: Tenant, deployment: Deployment): TransactItem => ({
    Put: {
      TableName: tableName,
      Item: {
        ...keys.deploymentLock(tenant, deployment.project_id, deployment.environment),
        entity: entityTypes.deploymentLock,
        deployment_id: deployment.id,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  const inProgressMoves = (tenant: Tenant, moves: number[]): TransactItem[] =>
    countMoves(tableName, deploymentsInProgressCountKey(tenant), moves);
  const eventItems = (tenant: Tenant, events: PendingEvent[]): TransactItem[] =>
    pendingEventItems(tableName, tenant, events, now()) as TransactItem[];

  return {
    async create(tenant, deployment, options = {}) {
      const items: TransactItem[] = [
        projectActivity(tenant, deployment.project_id, 1),
        lockPut(tenant, deployment),
        { Put: { TableName: tableName, Item: itemOf(tenant, deployment), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.deployments(tenant), 1),
        counterUpdate(tableName, keys.deploymentsOfProject(tenant, deployment.project_id), 1),
        counterUpdate(tableName, keys.deploymentsOfEnvironment(tenant, deployment.project_id, deployment.environment), 1),
        ...inProgressMoves(tenant, [moveOf(isDeploymentInProgress, undefined, deployment)]),
      ];
      const workflowCheckAt = options.whileWorkflowRuns === undefined ? -1 : items.length;
      if (options.whileWorkflowRuns !== undefined) items.push(workflowRunningCheck(tableName, tenant, options.whileWorkflowRuns));
      try {
        await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
        return 'created';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'project_missing';
        if (conditionFailedAt(error, 1)) return 'busy';
        if (workflowCheckAt >= 0 && conditionFailedAt(error, workflowCheckAt)) return 'workflow_stopped';
        throw error;
      }
    },

    get: ownedRecordById<Deployment>(table, keys.deployment),

    async save(tenant, previous, next, events, effects = {}) {
      const items: TransactItem[] = [conditionalPut(tenant, previous, next)];
      if (effects.alsoSave) items.push(conditionalPut(tenant, effects.alsoSave.previous, effects.alsoSave.next));
      const place = keys.deploymentLock(tenant, next.project_id, next.environment);
      if (effects.releaseLock) {
        items.push({
          Delete: {
            TableName: tableName,
            Key: place,
            ConditionExpression: 'deployment_id = :id',
            ExpressionAttributeValues: { ':id': next.id },
          },
        });
      }
      if (effects.setCurrent) {
        items.push({
          Put: {
            TableName: tableName,
            Item: {
              ...keys.currentDeployment(tenant, next.project_id, next.environment),
              entity: entityTypes.currentDeployment,
              deployment_id: effects.setCurrent,
            },
          },
        });
      }
      if (effects.finished) items.push(projectActivity(tenant, next.project_id, -1));
      items.push(
        ...inProgressMoves(tenant, [
          moveOf(isDeploymentInProgress, previous, next),
          ...(effects.alsoSave ? [moveOf(isDeploymentInProgress, effects.alsoSave.previous, effects.alsoSave.next)] : []),
        ]),
      );
      items.push(...eventItems(tenant, events));
      try {
        await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0) || (effects.alsoSave && conditionFailedAt(error, 1))) return false;
        throw error;
      }
    },

    async currentId(tenant, projectId, environment) {
      const result = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.currentDeployment(tenant, projectId, environment), ConsistentRead: true }),
      );
      return result.Item?.deployment_id as string | undefined;
    },

    async previousCompleted(tenant, projectId, environment, beforeId) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const result = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi2',
            KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
            FilterExpression: '#status = :completed',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':pk': keys.deploymentsOfEnvironment(tenant, projectId, environment),
              ':before': `${keys.deploymentSortKeyPrefix}${beforeId}`,
              ':completed': 'completed',
            },
            ScanIndexForward: false,
            ExclusiveStartKey: startKey,
          }),
        );
        // The index is eventually consistent: read the item itself before trusting its status.
        for (const item of result.Items ?? []) {
          const fresh = await this.get(tenant, item.id as string);
          if (fresh?.status === 'completed') return fresh;
        }
        startKey = result.LastEvaluatedKey;
      } while (startKey);
      return undefined;
    },

    async beginRollback(tenant, previous, next) {
      const current = keys.currentDeployment(tenant, next.project_id, next.environment);
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                lockPut(tenant, next),
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: current,
                    ConditionExpression: 'deployment_id = :id',
                    ExpressionAttributeValues: { ':id': next.id },
                  },
                },
                conditionalPut(tenant, previous, next),
                // A rollback under way counts as active too: its project cannot be deleted meanwhile.
                projectActivity(tenant, next.project_id, 1),
                ...inProgressMoves(tenant, [moveOf(isDeploymentInProgress, previous, next)]),
              ],
            }),
          ),
        );
        return 'started';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'busy';
        if (conditionFailedAt(error, 1)) return 'not_current';
        if (conditionFailedAt(error, 2) || conditionFailedAt(error, 3)) return 'changed';
        throw error;
      }
    },
  };
};

/** The deployments of an account, a project or one of its environments. */
export const dynamoDeploymentLists = (table: TableRef): Pick<DeploymentRepository, 'list'> => ({
  async list(tenant, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const base = rangeFor(tenant, query, filters.project_id, filters.environment);
    const spec = withEqualityFilters(base, { status: filters.status, environment: filters.project_id ? undefined : filters.environment });
    const total =
      filters.status || isDateFiltered(query) || (filters.environment && !filters.project_id)
        ? await countRange(table, spec)
        : await counterValue(table, base.partition);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
      project_id: filters.project_id ?? null,
      environment: filters.environment ?? null,
      status: filters.status ?? null,
    });
    return { ...page, items: page.items.map((item) => ownedRecord<Deployment>(item)) };
  },
});

export const dynamoDeploymentRepository = (table: TableRef, now: () => number = Date.now): DeploymentRepository => ({
  ...dynamoDeploymentRecords(table, now),
  ...dynamoDeploymentLists(table),
});
