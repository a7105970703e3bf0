import { systemClock } from '../../core/clock';
import type { WorkflowExecutor } from '../../core/workflows/workflow-executor';
import type { WorkflowDeps } from '../../core/workflows/workflow-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';
import { configuredProviders } from '../../adapters/ai/registry';

const noExecutor: WorkflowExecutor = {
  start: async () => {
    throw new Error('this function starts no workflows');
  },
  stop: async () => {
    throw new Error('this function stops no workflows');
  },
};

/**
 * For the routes that start or stop executions (create, cancel); the reads wire their repository in
 * their own file. `executorOf` only there: others carry no Step Functions client.
 */
export const workflowDeps = (executorOf: () => WorkflowExecutor = () => noExecutor): WorkflowDeps => ({
  workflows: dynamoWorkflowRepository(tableFromEnvironment()),
  executor: executorOf(),
  clock: systemClock,
  configuredProviders: () => configuredProviders(process.env),
});
