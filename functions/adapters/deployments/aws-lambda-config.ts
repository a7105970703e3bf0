import { ConfigFields, configObject } from '../../core/deployments/providers/config-fields';
import type { DeploymentProvider, HealthSettings } from '../../core/deployments/providers/provider';
import type { Mode } from '../../core/tenancy';

/**
 * The `aws-lambda` provider's config (see aws-lambda-provider.ts for its fields): parsing and
 * redaction only, without the Lambda client, so the API's deployment functions check and show
 * configs without bundling `@aws-sdk/client-lambda`. The provider that deploys is built on it.
 */
export const awsLambdaProviderName = 'aws-lambda';

export interface AwsLambdaConfig extends HealthSettings {
  /** As allowed in the deployment's mode: the ARN, or the name when that mode's list holds names (local runs). */
  function_name: string;
  alias: string;
  code: { s3_bucket: string; s3_key: string; s3_object_version: string | null };
  health_payload: Record<string, unknown>;
}

const functionNamePattern = /^[a-zA-Z0-9-_]{1,64}$/;
const functionArnPattern = /^arn:aws[a-zA-Z-]*:lambda:[a-z0-9-]+:\d{12}:function:([a-zA-Z0-9-_]{1,64})$/;
const qualifiedArnPattern = /^arn:aws[a-zA-Z-]*:lambda:[a-z0-9-]+:\d{12}:function:[a-zA-Z0-9-_]{1,64}:/;
const aliasPattern = /^[a-zA-Z0-9-_]+$/;
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const maxHealthPayloadBytes = 64 * 1024;
const knownFields = ['function_name', 'alias', 'code', 'health_payload', 'health_timeout_seconds', 'health_interval_seconds'] as const;
const codeFields = ['s3_bucket', 's3_key', 's3_object_version'] as const;
export const defaultAlias = 'live';

const versionPattern = /^\d+$/;

/** The function name of a name or an unqualified ARN, or undefined for anything else. */
const functionNameOf = (nameOrArn: string): string | undefined =>
  functionNamePattern.test(nameOrArn) ? nameOrArn : functionArnPattern.exec(nameOrArn)?.[1];

/** What a deployment's answer shows of the config: all of it (it holds no secret), copied. */
export const redactAwsLambdaConfig = (config: AwsLambdaConfig): Record<string, unknown> => ({
  ...config,
  code: { ...config.code },
  health_payload: config.health_payload,
});

export type AwsLambdaConfigs = Pick<DeploymentProvider<AwsLambdaConfig>, 'name' | 'parseConfig' | 'redactConfig'>;

/**
 * The functions `aws-lambda` deployments may update, by the mode of the key that creates them
 * (DEPLOY_LAMBDA_TARGETS, DEPLOY_LAMBDA_TEST_TARGETS): a test-mode key may only name a function of
 * `test`, a live key one of `live`, so test mode never touches live infrastructure. A function in
 * both lists may be deployed in both modes. Function ARNs or names, no wildcards. Empty: none.
 */
export interface LambdaTargets {
  live: readonly string[];
  test: readonly string[];
}

/** Trimmed entries, empty ones dropped; throws on an entry that is not a function name or unqualified ARN. */
const checkedTargets = (entries: readonly string[], variable: string): string[] => {
  const list = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of list) {
    if (functionNameOf(entry) === undefined) {
      throw new TypeError(
        `${variable} function ${JSON.stringify(entry)} is not a function name or an unqualified function ARN (no wildcards)`,
      );
    }
  }
  return list;
};

/** `targets`: per mode, the function ARNs or names this service may deploy to; no wildcards (throws). */
export const awsLambdaConfigs = (targets: LambdaTargets): AwsLambdaConfigs => {
  const allowedIn: Record<Mode, string[]> = {
    live: checkedTargets(targets.live, 'allowed live-mode'),
    test: checkedTargets(targets.test, 'allowed test-mode'),
  };

  /** The allowed entry of `mode` a config's function_name stands for, or the issue. */
  const allowedTarget = (value: string, mode: Mode): { ok: true; entry: string } | { ok: false; issue: string } => {
    if (qualifiedArnPattern.test(value)) return { ok: false, issue: 'must not carry a version or alias (set config.alias)' };
    const name = functionNameOf(value);
    if (name === undefined) return { ok: false, issue: 'must be a function name or an unqualified function ARN' };
    // Anything but the two modes allows nothing (fails closed).
    const allowed = mode === 'live' || mode === 'test' ? allowedIn[mode] : [];
    if (allowed.includes(value)) return { ok: true, entry: value };
    const byName = value === name ? allowed.filter((entry) => entry !== name && functionNameOf(entry) === name) : [];
    if (byName.length === 1 && byName[0] !== undefined) return { ok: true, entry: byName[0] };
    if (byName.length > 1) return { ok: false, issue: `names several allowed functions (${byName.join(', ')}); give the ARN` };
    return {
      ok: false,
      issue: `is not a ${String(mode)}-mode deploy target of this deployment; allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`,
    };
  };

  return {
    name: awsLambdaProviderName,

    async parseConfig(input, context) {
      const object = configObject(input);
      if (!object.ok) return object;
      const fields = new ConfigFields(object.config);
      fields.rejectUnknown(knownFields);

      let functionName = fields.string('function_name', { required: true, min: 1, max: 170 });
      if (functionName !== undefined) {
        const verdict = allowedTarget(functionName, context.mode);
        functionName = verdict.ok ? verdict.entry : fields.issue('function_name', verdict.issue);
      }

      let alias = fields.string('alias', { required: false, min: 1, max: 128 }) ?? (fields.has('alias') ? undefined : defaultAlias);
      if (alias !== undefined && !aliasPattern.test(alias)) alias = fields.issue('alias', 'may only hold letters, digits, - and _');
      else if (alias !== undefined && versionPattern.test(alias))
        alias = fields.issue('alias', 'must not be a number (numbers are versions)');

      let code: AwsLambdaConfig['code'] | undefined;
      const codeObject = fields.object('code', true);
      if (codeObject) {
        const codeFieldsReader = fields.nested('code', codeObject);
        codeFieldsReader.rejectUnknown(codeFields);
        let bucket = codeFieldsReader.string('s3_bucket', { required: true, min: 3, max: 63 });
        if (bucket !== undefined && !bucketPattern.test(bucket))
          bucket = codeFieldsReader.issue('s3_bucket', 'is not a valid S3 bucket name');
        const key = codeFieldsReader.string('s3_key', { required: true, min: 1, max: 1024 });
        const version = codeFieldsReader.string('s3_object_version', { required: false, min: 1, max: 1024 }) ?? null;
        if (bucket !== undefined && key !== undefined) code = { s3_bucket: bucket, s3_key: key, s3_object_version: version };
      }

      let healthPayload = fields.object('health_payload', false) ?? (fields.has('health_payload') ? undefined : {});
      if (healthPayload !== undefined && Buffer.byteLength(JSON.stringify(healthPayload)) > maxHealthPayloadBytes) {
        healthPayload = fields.issue('health_payload', `must be at most ${maxHealthPayloadBytes / 1024} KiB as JSON`);
      }
      const health = fields.health();

      if (fields.issues.length > 0 || functionName === undefined || alias === undefined || !code || !healthPayload || !health) {
        return { ok: false, issues: fields.issues };
      }
      return { ok: true, config: { function_name: functionName, alias, code, health_payload: healthPayload, ...health } };
    },

    redactConfig: redactAwsLambdaConfig,
  };
};
