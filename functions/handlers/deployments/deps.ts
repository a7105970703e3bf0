import { systemClock } from '../../core/clock';
import type { DeploymentExecutor } from '../../core/deployments/deployment-executor';
import type { DeploymentDeps } from '../../core/deployments/deployment-use-cases';
import type { Deployment, DeploymentView } from '../../core/deployments/deployment';
import { viewOfDeployment } from '../../core/deployments/snapshot';
import { deploymentConfigs, type ProviderConfigs, providerNames } from '../../adapters/deployments/provider-configs';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRepository } from '../../adapters/dynamodb/deployment-repository';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';

const noExecutor: DeploymentExecutor = {
  start: async () => {
    throw new Error('this function starts no deployments');
  },
};

/** Config parsing and redaction only: these functions never deploy, so they carry no Lambda client. */
let providers: Map<string, ProviderConfigs> | undefined;
const providerNamed = (name: string): ProviderConfigs | undefined => {
  providers ??= deploymentConfigs();
  return providers.get(name);
};

/** The answer's view: secrets of the provider config shown as set, never echoed. */
export const deploymentView = (deployment: Deployment): DeploymentView =>
  viewOfDeployment(deployment, (name, config) => providerNamed(name)?.redactConfig(config) ?? {});

export const deploymentDeps = (executorOf: () => DeploymentExecutor = () => noExecutor): DeploymentDeps => {
  const table = tableFromEnvironment();
  return {
    deployments: dynamoDeploymentRepository(table),
    workflows: dynamoWorkflowRepository(table),
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
