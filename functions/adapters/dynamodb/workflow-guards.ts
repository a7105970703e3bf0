import type { Tenant } from '../../core/tenancy';
import * as keys from './table-keys';
import type { TransactItem } from './transactions';

/**
 * The transaction item that lets a write through only while the workflow runs: what a stage
 * starts (verify's review, package's deployment) is not stored once the workflow was cancelled.
 */
export const workflowRunningCheck = (tableName: string, tenant: Tenant, workflowId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.workflow(tenant, workflowId),
    ConditionExpression: '#status = :running',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':running': 'running' },
  },
});
