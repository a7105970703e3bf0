import {
  deploymentsInProgressCountKey,
  isDeploymentInProgress,
  isOpenCriticalFinding,
  isRunningWorkflow,
  openCriticalFindingsCountKey,
  runningWorkflowsCountKey,
} from '../attention-counts';
import type { TableRef } from '../client';
import { entityTypes } from '../keys';
import * as keys from '../table-keys';
import { type CountedCollection, recountCollection } from './recount';

/** One of Home's counts. */
interface HomeCount extends CountedCollection {
  name: 'runningWorkflows' | 'openCriticalFindings' | 'deploymentsInProgress';
}

const collections: HomeCount[] = [
  {
    name: 'runningWorkflows',
    entity: entityTypes.workflow,
    partition: keys.workflows,
    sortKeyPrefix: keys.workflowSortKeyPrefix,
    counted: (record) => isRunningWorkflow(record as Parameters<typeof isRunningWorkflow>[0]),
    counterKey: runningWorkflowsCountKey,
  },
  {
    name: 'openCriticalFindings',
    entity: entityTypes.finding,
    partition: keys.findings,
    sortKeyPrefix: keys.findingSortKeyPrefix,
    counted: (record) => isOpenCriticalFinding(record as Parameters<typeof isOpenCriticalFinding>[0]),
    counterKey: openCriticalFindingsCountKey,
  },
  {
    name: 'deploymentsInProgress',
    entity: entityTypes.deployment,
    partition: keys.deployments,
    sortKeyPrefix: keys.deploymentSortKeyPrefix,
    counted: (record) => isDeploymentInProgress(record as Parameters<typeof isDeploymentInProgress>[0]),
    counterKey: deploymentsInProgressCountKey,
  },
];

export type AttentionRecountReport = Record<HomeCount['name'], { tenants: number; counted: number }>;

/**
 * One-off and idempotent: sets every account mode's counters of Home (running workflows, open
 * critical findings, deployments in progress) from its records, for records written before the
 * counters were kept. Running it again counts the same; running it beside the writes is safe (see
 * `recountTenant`).
 */
export const recountAttentionCounts = async (table: TableRef): Promise<AttentionRecountReport> => {
  const report = {} as AttentionRecountReport;
  for (const collection of collections) report[collection.name] = await recountCollection(table, collection);
  return report;
};
