import { LambdaClient } from '@aws-sdk/client-lambda';
import type { FieldIssue } from '../../core/errors';
import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import { awsLambdaProvider, awsLambdaProviderName } from './aws-lambda-provider';
import { deployHookProvider, deployHookProviderName, type DeployHookOptions } from './deploy-hook-provider';
import { type DeploymentEnvironment, type DeploymentProviderName, isProviderName, lambdaTargets, providerNames } from './provider-configs';

export { type DeploymentEnvironment, type DeploymentProviderName, isProviderName, lambdaTargets, providerNames } from './provider-configs';

/**
 * The deployment providers, by name, whole (deploy, health, rollback): for the deployment steps.
 * The API's functions only parse and show configs (provider-configs.ts). Configured by environment
 * variables (the CDK stack sets them):
 *
 * - DEPLOY_LAMBDA_TARGETS        comma list of the Lambda function ARNs (or, locally, names)
 *                                live-mode `aws-lambda` deployments may deploy to.
 * - DEPLOY_LAMBDA_TEST_TARGETS   the same for test-mode deployments (provider-configs.ts).
 *   Unset or empty: none for that mode. Wildcards are refused: building the registry throws.
 *   Configs are checked when a deployment is created; its steps deploy, probe and roll back the
 *   function recorded then.
 * - AWS_REGION                   region of the Lambda client (set by Lambda); else the SDK's chain.
 *
 * The deploy-hook provider's target policy is the webhooks' (`targetPolicyFor`: https and public
 * addresses in live mode; private addresses only for test mode in the local runtime).
 */
/** Configs differ per provider: the caller keeps a provider's parsed config with its name. */
export type AnyDeploymentProvider = DeploymentProvider<unknown>;

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
    [awsLambdaProviderName, awsLambdaProvider({ client: lambdaClient, targets: lambdaTargets(env) })],
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
