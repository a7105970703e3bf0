import { LambdaClient } from '@aws-sdk/client-lambda';
import type { FieldIssue } from '../../core/errors';
import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import { awsLambdaProvider, awsLambdaProviderName } from './aws-lambda-provider';
import { deployHookProvider, deployHookProviderName, type DeployHookOptions } from './deploy-hook-provider';

/**
 * The deployment providers, by name. Configured by environment variables (the CDK stack sets them):
 *
 * - DEPLOY_LAMBDA_TARGETS   comma list of the Lambda function ARNs (or, locally, names) the
 *                           `aws-lambda` provider may deploy to. Unset or empty: none, so every
 *                           `aws-lambda` config is refused (`config.function_name`). Wildcards are
 *                           refused: building the registry throws.
 * - AWS_REGION              region of the Lambda client (set by Lambda); else the SDK's chain.
 *
 * The deploy-hook provider's target policy is the webhooks' (`targetPolicyFor`: https and public
 * addresses in live mode; private addresses only for test mode in the local runtime).
 */
export const providerNames = [deployHookProviderName, awsLambdaProviderName] as const;
export type DeploymentProviderName = (typeof providerNames)[number];
export type DeploymentEnvironment = Readonly<Record<string, string | undefined>>;
/** Configs differ per provider: the caller keeps a provider's parsed config with its name. */
export type AnyDeploymentProvider = DeploymentProvider<unknown>;

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

export interface RegistryDeps {
  /** Default: a client for AWS_REGION (no network until the first call). */
  lambdaClient?: LambdaClient;
  deployHook?: DeployHookOptions;
}

export const deploymentProviders = (
  env: DeploymentEnvironment = process.env,
  deps: RegistryDeps = {},
): Map<DeploymentProviderName, AnyDeploymentProvider> => {
  const region = env.AWS_REGION?.trim();
  const lambdaClient = deps.lambdaClient ?? new LambdaClient(region ? { region } : {});
  return new Map<DeploymentProviderName, AnyDeploymentProvider>([
    [deployHookProviderName, deployHookProvider(deps.deployHook)],
    [awsLambdaProviderName, awsLambdaProvider({ client: lambdaClient, allowedFunctions: lambdaTargets(env) })],
  ]);
};

/** The provider of a request's `provider` field, or the issue on `provider`. */
export const providerFor = (
  providers: ReadonlyMap<DeploymentProviderName, AnyDeploymentProvider>,
  name: unknown,
): { ok: true; name: DeploymentProviderName; provider: AnyDeploymentProvider } | { ok: false; issues: FieldIssue[] } => {
  const provider = isProviderName(name) ? providers.get(name) : undefined;
  if (!isProviderName(name) || !provider)
    return { ok: false, issues: [{ field: 'provider', issue: `must be one of ${providerNames.join(', ')}` }] };
  return { ok: true, name, provider };
};
