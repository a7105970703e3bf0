import type { Tenant } from '../../core/tenancy';
import type { activeDeploymentsAttribute, activeWorkflowsAttribute } from './keys';
import * as keys from './table-keys';
import type { TransactItem } from './transactions';

/** The transaction item that lets a create through only while its project exists. */
export const projectExistsCheck = (tableName: string, tenant: Tenant, projectId: string): TransactItem => ({
  ConditionCheck: { TableName: tableName, Key: keys.project(tenant, projectId), ConditionExpression: 'attribute_exists(pk)' },
});

/**
 * The transaction item that moves one of a project's counts of active children by `by`, only while
 * the project exists: a project with any active workflow or deployment cannot be deleted.
 */
export const projectActivityUpdate = (
  tableName: string,
  tenant: Tenant,
  projectId: string,
  attribute: typeof activeWorkflowsAttribute | typeof activeDeploymentsAttribute,
  by: 1 | -1,
): TransactItem => ({
  Update: {
    TableName: tableName,
    Key: keys.project(tenant, projectId),
    UpdateExpression: 'ADD #active :by',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#active': attribute },
    ExpressionAttributeValues: { ':by': by },
  },
});
