import { ConfigFields, configObject } from '../../core/deployments/providers/config-fields';
import type { DeploymentProvider } from '../../core/deployments/providers/provider';
import type { Mode } from '../../core/tenancy';
import type { TargetPolicy } from '../../core/webhooks/target-policy';
import { assessTarget } from '../http/target-resolution';
import { targetPolicyFor } from '../runtime/webhook-runtime';
import { type DeployHookConfig, deployHookProviderName, redactDeployHookConfig } from './deploy-hook-config';

/**
 * The `deploy-hook` config's parsing (the fields' rules are in deploy-hook-provider.ts), apart
 * from the provider that deploys: the API functions parse and check configs but never call the
 * hook, so they carry no HTTP client.
 */
export interface DeployHookParseOptions {
  /** Where a deployment of this mode may send. Default: the webhooks' `targetPolicyFor`. */
  policyFor?: (mode: Mode) => TargetPolicy;
  /** Parse-time target check. Default: `assessTarget` with the system resolver. */
  assessTarget?: (url: string, policy: TargetPolicy) => Promise<{ ok: true } | { ok: false; reason: string }>;
}

type DeployHookConfigs = Pick<DeploymentProvider<DeployHookConfig>, 'name' | 'parseConfig' | 'redactConfig'>;

const secretLength = { min: 16, max: 256 };
const statusBounds = { min: 200, max: 599 };
const knownFields = ['hook_url', 'health_url', 'secret', 'expected_status', 'health_timeout_seconds', 'health_interval_seconds'] as const;

export const deployHookConfigParser = (options: DeployHookParseOptions = {}): DeployHookConfigs['parseConfig'] => {
  const policyFor = options.policyFor ?? targetPolicyFor;
  const assess = options.assessTarget ?? ((url: string, policy: TargetPolicy) => assessTarget(url, policy));
  return async (input, { mode }) => {
    const object = configObject(input);
    if (!object.ok) return object;
    const fields = new ConfigFields(object.config);
    fields.rejectUnknown(knownFields);
    const policy = policyFor(mode);
    const urlFields = ['hook_url', 'health_url'] as const;
    const urls = urlFields.map((name) => fields.string(name, { required: true, min: 0, max: Number.POSITIVE_INFINITY }));
    const verdicts = await Promise.all(urls.map((url) => (url === undefined ? undefined : assess(url, policy))));
    verdicts.forEach((verdict, i) => {
      if (verdict && !verdict.ok) fields.issue(urlFields[i] ?? 'url', verdict.reason);
    });
    const [hookUrl, healthUrl] = urls;
    const secret = fields.string('secret', { required: true, ...secretLength });
    const expectedStatus = fields.integer('expected_status', statusBounds, null);
    const health = fields.health();
    if (
      fields.issues.length > 0 ||
      hookUrl === undefined ||
      healthUrl === undefined ||
      secret === undefined ||
      expectedStatus === undefined ||
      !health
    ) {
      return { ok: false, issues: fields.issues };
    }
    return { ok: true, config: { hook_url: hookUrl, health_url: healthUrl, secret, expected_status: expectedStatus, ...health } };
  };
};

/** The provider's name, parsing and redaction: what the API's deployment functions use. */
export const deployHookConfigs = (options: DeployHookParseOptions = {}): DeployHookConfigs => ({
  name: deployHookProviderName,
  parseConfig: deployHookConfigParser(options),
  redactConfig: redactDeployHookConfig,
});
