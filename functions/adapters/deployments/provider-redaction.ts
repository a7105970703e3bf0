import { type AwsLambdaConfig, awsLambdaProviderName, redactAwsLambdaConfig } from './aws-lambda-config';
import { type DeployHookConfig, deployHookProviderName, redactDeployHookConfig } from './deploy-hook-config';

/**
 * What a deployment's answer shows of its provider config, by provider name; `{}` for a provider
 * this service does not know. The functions that only read deployments need this and no config
 * parsing (which checks hook URLs with the webhook HTTP client's target guard).
 */
export const redactProviderConfig = (name: string, config: Record<string, unknown>): Record<string, unknown> =>
  name === deployHookProviderName
    ? redactDeployHookConfig(config as unknown as DeployHookConfig)
    : name === awsLambdaProviderName
      ? redactAwsLambdaConfig(config as unknown as AwsLambdaConfig)
      : {};
