import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ListQuery, Page } from '../../core/pagination';
import type { Project, ProjectChanges, ProjectRepository, ProjectSort } from '../../core/projects/project';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
import { putInCollection } from './collection-writes';
import { conditionFailedAt, withConflictRetry } from './transactions';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdAtFilter,
  createdKeyRange,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
} from './list-page';
import { activeDeploymentsAttribute, activeWorkflowsAttribute, entityTypes, projectNameKey, projectUpdatedKey, withoutKeys } from './keys';
import * as keys from './table-keys';
import { updateExisting } from './update-expression';
import { unchangedCondition, withCondition } from './unchanged-condition';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { entityTagOf } from '../../core/preconditions';

const byCreation = (tenant: Tenant, query: ListQuery): RangeSpec => {
  const { low, high } = createdKeyRange(keys.projectSortKeyPrefix, 'project', query);
  return {
    query: {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': keys.projects(tenant), ':low': low, ':high': high },
    },
    keyAttributes: ['pk', 'sk'],
    partition: keys.projects(tenant),
  };
};

/** Name and update-time orders come from their own index; a date range filters them. */
const byIndex = (tenant: Tenant, query: ListQuery, index: 'gsi1' | 'gsi2'): RangeSpec => {
  const filter = createdAtFilter(query);
  return {
    query: {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': keys.projects(tenant), ...filter.values },
      ...(filter.expressions.length > 0 ? { FilterExpression: filter.expressions.join(' AND ') } : {}),
    },
    keyAttributes: ['pk', 'sk', `${index}pk`, `${index}sk`],
    partition: keys.projects(tenant),
  };
};

const rangeFor = (tenant: Tenant, query: ListQuery<ProjectSort>): RangeSpec => {
  switch (query.sort) {
    case 'name':
      return byIndex(tenant, query, 'gsi1');
    case 'updated_at':
      return byIndex(tenant, query, 'gsi2');
    case 'created_at':
      return byCreation(tenant, query);
  }
};

/** Fields in the documented order, whatever order the table returns them in. */
const projectFrom = (item: Record<string, unknown>): Project => {
  const { id, name, repository, description, created_at, updated_at } = withoutKeys<Project>(item);
  return { id, name, repository, description, created_at, updated_at };
};

/** One project by id, alone: what `GET /v1/projects/{id}` reads (no writes, no list paging). */
export const dynamoProjectReader = ({ client, tableName }: TableRef): Pick<ProjectRepository, 'get'> => ({
  async get(tenant, id, options) {
    const result = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.project(tenant, id), ConsistentRead: options?.consistent === true }),
    );
    return result.Item ? projectFrom(result.Item) : undefined;
  },
});

export const dynamoProjectRepository = (table: TableRef): ProjectRepository => {
  const { client, tableName } = table;

  const total = async (tenant: Tenant, query: ListQuery): Promise<number> => {
    if (isDateFiltered(query)) return countRange(table, byCreation(tenant, query));
    return counterValue(table, keys.projects(tenant));
  };

  return {
    async create(tenant, project) {
      const item = {
        ...keys.project(tenant, project.id),
        ...keys.projectIndexes(tenant, project),
        entity: entityTypes.project,
        ...project,
      };
      if (!(await putInCollection(table, item, keys.projects(tenant)))) throw new Error(`project ${project.id} exists already`);
    },

    ...dynamoProjectReader(table),

    async update(tenant, id, changes: ProjectChanges, updatedAt, expected) {
      const updated = await updateExisting(
        table,
        keys.project(tenant, id),
        {
          ...changes,
          updated_at: updatedAt,
          gsi2sk: projectUpdatedKey(updatedAt, id),
          gsi1sk: changes.name === undefined ? undefined : projectNameKey(changes.name, id),
        },
        expected && unchangedCondition({ ...expected }),
      );
      return updated === 'changed' || updated === undefined ? updated : projectFrom(updated);
    },

    async delete(tenant, id, expected) {
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Delete: withCondition(
                    {
                      TableName: tableName,
                      Key: keys.project(tenant, id),
                      ConditionExpression:
                        'attribute_exists(pk) AND (attribute_not_exists(#workflows) OR #workflows <= :none) AND (attribute_not_exists(#deployments) OR #deployments <= :none)',
                      ExpressionAttributeNames: { '#workflows': activeWorkflowsAttribute, '#deployments': activeDeploymentsAttribute },
                      ExpressionAttributeValues: { ':none': 0 },
                      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
                    },
                    expected && unchangedCondition({ ...expected }),
                  ),
                },
                counterUpdate(tableName, keys.projects(tenant), -1),
              ],
            }),
          ),
        );
        return 'deleted';
      } catch (error) {
        if (!conditionFailedAt(error, 0)) throw error;
        const item = (error as TransactionCanceledException).CancellationReasons?.[0]?.Item;
        if (!item) return 'not_found';
        return expected && entityTagOf(projectFrom(unmarshall(item))) !== entityTagOf(expected) ? 'changed' : 'busy';
      }
    },

    async list(tenant, query): Promise<Page<Project>> {
      if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
      const page = await listPage<Record<string, unknown>>(table, rangeFor(tenant, query), query, await total(tenant, query));
      return { ...page, items: page.items.map(projectFrom) };
    },
  };
};
