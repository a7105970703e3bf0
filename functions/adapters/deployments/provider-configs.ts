import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import { awsLambdaConfigs, awsLambdaProviderName, type LambdaTargets } from './aws-lambda-config';
import { deployHookProviderName } from './deploy-hook-config';
import { deployHookConfigs, type DeployHookParseOptions } from './deploy-hook-config-parser';

/**
 * What the API's deployment functions need of the providers: each one's name, config parsing and
 * redaction. No deploy, health or rollback, hence no Lambda client in their bundles; the
 * deployment steps build the whole providers (provider-registry.ts).
 *
 * - DEPLOY_LAMBDA_TARGETS        comma list of the Lambda function ARNs (or, locally, names)
 *                                live-mode `aws-lambda` deployments may deploy to.
 * - DEPLOY_LAMBDA_TEST_TARGETS   the same for test-mode deployments (`svc_test_` keys): a
 *                                test-mode key never reaches a function of the live list alone.
 *   Unset or empty: none for that mode, so every `aws-lambda` config of that mode is refused
 *   (`config.function_name`). Wildcards are refused: building the configs throws.
 */
export const providerNames = [deployHookProviderName, awsLambdaProviderName] as const;
export type DeploymentProviderName = (typeof providerNames)[number];
export type DeploymentEnvironment = Readonly<Record<string, string | undefined>>;
export type ProviderConfigs = Pick<DeploymentProvider<Record<string, unknown>>, 'name' | 'parseConfig' | 'redactConfig'>;

export const isProviderName = (name: unknown): name is DeploymentProviderName =>
  typeof name === 'string' && (providerNames as readonly string[]).includes(name);

/** A comma list (trimmed, empty items dropped, duplicates removed). */
const targetList = (value: string | undefined): string[] => [
  ...new Set(
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  ),
];

/** The allowed Lambda targets by mode: DEPLOY_LAMBDA_TARGETS (live) and DEPLOY_LAMBDA_TEST_TARGETS (test). */
export const lambdaTargets = (env: DeploymentEnvironment): LambdaTargets => ({
  live: targetList(env.DEPLOY_LAMBDA_TARGETS),
  test: targetList(env.DEPLOY_LAMBDA_TEST_TARGETS),
});

export const deploymentConfigs = (
  env: DeploymentEnvironment = process.env,
  deps: { deployHook?: DeployHookParseOptions } = {},
): Map<DeploymentProviderName, ProviderConfigs> =>
  new Map<DeploymentProviderName, ProviderConfigs>([
    [deployHookProviderName, deployHookConfigs(deps.deployHook) as unknown as ProviderConfigs],
    [awsLambdaProviderName, awsLambdaConfigs(lambdaTargets(env)) as unknown as ProviderConfigs],
  ]);
