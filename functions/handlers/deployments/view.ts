import type { Deployment, DeploymentView } from '../../core/deployments/deployment';
import { viewOfDeployment } from '../../core/deployments/snapshot';
import { redactProviderConfig } from '../../adapters/deployments/provider-redaction';

/** The answer's view: secrets of the provider config shown as set, never echoed. */
export const deploymentView = (deployment: Deployment): DeploymentView => viewOfDeployment(deployment, redactProviderConfig);
