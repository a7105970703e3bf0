import type { HealthSettings } from '../../core/deployments/providers/provider';

/** The `deploy-hook` provider's name and stored config (see deploy-hook-provider.ts for the fields' rules). */
export const deployHookProviderName = 'deploy-hook';

export interface DeployHookConfig extends HealthSettings {
  hook_url: string;
  health_url: string;
  secret: string;
  /** null: any 2xx. */
  expected_status: number | null;
}

/** What a deployment's answer shows of the config: the secret as `"set"`, nothing of its value. */
export const redactDeployHookConfig = ({ secret: _secret, ...rest }: DeployHookConfig): Record<string, unknown> => ({
  ...rest,
  secret: 'set',
});
