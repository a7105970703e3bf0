import { systemClock } from '../../core/clock';
import type { WorkflowRepository } from '../../core/workflows/workflow';
import type { WorkflowExecutor } from '../../core/workflows/workflow-executor';
import type { WorkflowDeps } from '../../core/workflows/workflow-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowRecords, dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';
import { configuredProviders } from '../../adapters/ai/configured-providers';

const noExecutor: WorkflowExecutor = {
  start: async () => {
    throw new Error('this function starts no workflows');
  },
  stop: async () => {
    throw new Error('this function stops no workflows');
  },
};

/**
 * For the routes that start or stop executions (create, cancel): one workflow at a time, no lists;
 * the reads wire their repository in their own file. `executorOf` only there: others carry no
 * Step Functions client.
 */
export const workflowDeps = (executorOf: () => WorkflowExecutor = () => noExecutor): WorkflowDeps => ({
  workflows: dynamoWorkflowRecords(tableFromEnvironment()),
  executor: executorOf(),
  clock: systemClock,
  configuredProviders: () => configuredProviders(process.env),
});

/** For the dashboard's workflow pages, which read one workflow and list them and their logs. */
export const workflowReadDeps = (): { workflows: WorkflowRepository } => ({
  workflows: dynamoWorkflowRepository(tableFromEnvironment()),
});
