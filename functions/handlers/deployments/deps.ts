import { systemClock } from '../../core/clock';
import type { DeploymentRepository } from '../../core/deployments/deployment';
import type { DeploymentExecutor } from '../../core/deployments/deployment-executor';
import type { DeploymentDeps } from '../../core/deployments/deployment-use-cases';
import { deploymentConfigs, type ProviderConfigs, providerNames } from '../../adapters/deployments/provider-configs';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRecords, dynamoDeploymentRepository } from '../../adapters/dynamodb/deployment-repository';
import { dynamoWorkflowReader } from '../../adapters/dynamodb/workflow-repository';

const noExecutor: DeploymentExecutor = {
  start: async () => {
    throw new Error('this function starts no deployments');
  },
};

/**
 * For the route that creates deployments: config parsing, but never deploying,
 * so it carries no Lambda client. The reads wire their repository in their own file and show
 * configs with deploymentView (view.ts), without the parsers.
 */
let providers: Map<string, ProviderConfigs> | undefined;
const providerNamed = (name: string): ProviderConfigs | undefined => {
  providers ??= deploymentConfigs();
  return providers.get(name);
};

export const deploymentDeps = (executorOf: () => DeploymentExecutor = () => noExecutor): DeploymentDeps => {
  const table = tableFromEnvironment();
  return {
    deployments: dynamoDeploymentRecords(table),
    workflows: dynamoWorkflowReader(table),
    providers: {
      names: () => [...providerNames],
      parseConfig: async (name, config, context) => {
        const provider = providerNamed(name);
        if (!provider) return { ok: false, issues: [{ field: 'provider', issue: `must be one of ${providerNames.join(', ')}` }] };
        return provider.parseConfig(config, context);
      },
    },
    executor: executorOf(),
    clock: systemClock,
  };
};

/**
 * For rollback: the deployment records and the executor. A rollback parses no config (it goes back
 * to a deployment already accepted) and checks no artifact, so no provider parsers, target checks
 * or workflow reader.
 */
export const deploymentRollbackDeps = (
  executorOf: () => DeploymentExecutor,
): Pick<DeploymentDeps, 'deployments' | 'executor' | 'clock'> => ({
  deployments: dynamoDeploymentRecords(tableFromEnvironment()),
  executor: executorOf(),
  clock: systemClock,
});

/** For the dashboard's deployment pages, which read one deployment and list them. */
export const deploymentReadDeps = (): { deployments: DeploymentRepository } => ({
  deployments: dynamoDeploymentRepository(tableFromEnvironment()),
});
