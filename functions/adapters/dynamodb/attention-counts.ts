import type { Deployment } from '../../core/deployments/deployment';
import type { Finding } from '../../core/security/finding';
import type { Tenant } from '../../core/tenancy';
import type { Workflow } from '../../core/workflows/workflow';
import { entityTypes } from './keys';
import * as keys from './table-keys';
import type { TransactItem } from './transactions';

/**
 * What Home counts, each kept in a counter item per account mode so that Home reads the three with
 * the session in one batch: running workflows, open critical findings, deployments in progress.
 * Every write that moves a record into the counted state adds one in the same transaction; every
 * write that moves one out takes one away. A decrease is never a condition: a workflow, finding or
 * deployment write must not be refused for a dashboard count. A record from before the counters
 * (until `migrate attention-counts` has run) can take a count below zero; it reads as zero.
 */
export const isRunningWorkflow = (workflow: Pick<Workflow, 'status'>): boolean => workflow.status === 'running';
export const isOpenCriticalFinding = (finding: Pick<Finding, 'severity' | 'status'>): boolean =>
  finding.severity === 'critical' && finding.status === 'open';
export const isDeploymentInProgress = (deployment: Pick<Deployment, 'status'>): boolean => deployment.status === 'in_progress';

export const runningWorkflowsCountKey = (tenant: Tenant) => keys.counter(keys.runningWorkflows(tenant));
export const openCriticalFindingsCountKey = (tenant: Tenant) => keys.counter(keys.openCriticalFindings(tenant));
export const deploymentsInProgressCountKey = (tenant: Tenant) => keys.counter(keys.deploymentsInProgress(tenant));

/** +1 when a record enters the counted state, −1 when it leaves it, 0 otherwise (`before` absent: created). */
export const moveOf = <T>(counted: (record: T) => boolean, before: T | undefined, after: T): number =>
  Number(counted(after)) - Number(before !== undefined && counted(before));

/** The counter's update for the sum of a transaction's moves (a transaction names an item once), or none when they cancel out. */
export const countMoves = (tableName: string, key: { pk: string; sk: string }, moves: number[]): TransactItem[] => {
  const by = moves.reduce((sum, move) => sum + move, 0);
  if (by === 0) return [];
  return [
    {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: 'ADD #count :by SET entity = :entity',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':by': by, ':entity': entityTypes.counter },
      },
    },
  ];
};

export const countOf = (item: Record<string, unknown> | undefined): number => Math.max(0, Number(item?.count ?? 0));
