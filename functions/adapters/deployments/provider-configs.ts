import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import { awsLambdaConfigs, awsLambdaProviderName } from './aws-lambda-config';
import { deployHookProviderName } from './deploy-hook-config';
import { deployHookConfigs, type DeployHookParseOptions } from './deploy-hook-config-parser';

/**
 * What the API's deployment functions need of the providers: each one's name, config parsing and
 * redaction. No deploy, health or rollback, hence no Lambda client in their bundles; the
 * deployment steps build the whole providers (provider-registry.ts).
 *
 * - DEPLOY_LAMBDA_TARGETS   comma list of the Lambda function ARNs (or, locally, names) the
 *                           `aws-lambda` provider may deploy to. Unset or empty: none, so every
 *                           `aws-lambda` config is refused (`config.function_name`). Wildcards are
 *                           refused: building the configs throws.
 */
export const providerNames = [deployHookProviderName, awsLambdaProviderName] as const;
export type DeploymentProviderName = (typeof providerNames)[number];
export type DeploymentEnvironment = Readonly<Record<string, string | undefined>>;
export type ProviderConfigs = Pick<DeploymentProvider<Record<string, unknown>>, 'name' | 'parseConfig' | 'redactConfig'>;

export const isProviderName = (name: unknown): name is DeploymentProviderName =>
  typeof name === 'string' && (providerNames as readonly string[]).includes(name);

/** DEPLOY_LAMBDA_TARGETS as a list (trimmed, empty items dropped, duplicates removed). */
export const lambdaTargets = (env: DeploymentEnvironment): string[] => [
  ...new Set(
    (env.DEPLOY_LAMBDA_TARGETS ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  ),
];

export const deploymentConfigs = (
  env: DeploymentEnvironment = process.env,
  deps: { deployHook?: DeployHookParseOptions } = {},
): Map<DeploymentProviderName, ProviderConfigs> =>
  new Map<DeploymentProviderName, ProviderConfigs>([
    [deployHookProviderName, deployHookConfigs(deps.deployHook) as unknown as ProviderConfigs],
    [awsLambdaProviderName, awsLambdaConfigs(lambdaTargets(env)) as unknown as ProviderConfigs],
  ]);
