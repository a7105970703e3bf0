import { systemClock } from '../../core/clock';
import type { StepDeps } from '../../core/deployments/deployment-steps';
import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import { deploymentProviders } from '../../adapters/deployments/provider-registry';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRepository } from '../../adapters/dynamodb/deployment-repository';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { delayScaleFromEnvironment } from '../../adapters/runtime/webhook-runtime';
import { tracedTable } from '../../observability/tracer';

/** What the deployment state machine's functions reach, from their environment. */
export const stepDeps = (): StepDeps => {
  const table = tracedTable(tableFromEnvironment());
  let providers: Map<string, DeploymentProvider<Record<string, unknown>>> | undefined;
  return {
    deployments: dynamoDeploymentRepository(table),
    projects: dynamoProjectRepository(table),
    clock: systemClock,
    provider(name) {
      providers ??= deploymentProviders() as Map<string, DeploymentProvider<Record<string, unknown>>>;
      const provider = providers.get(name);
      if (!provider) throw new Error(`unknown deployment provider ${name}`);
      return provider;
    },
    timeScale: delayScaleFromEnvironment(),
  };
};
